/** The expiries a share link can be given in the dialog; `null` seconds: it never expires. */
export const EXPIRY_PRESETS = [
  { label: "1 hour", seconds: 3600 },
  { label: "1 day", seconds: 86_400 },
  { label: "7 days", seconds: 7 * 86_400 },
  { label: "never", seconds: null },
] as const;

export type ExpiryLabel = (typeof EXPIRY_PRESETS)[number]["label"];

/** How a link's state reads in the list: revoked, expired, or when it expires. */
export function linkState(
  link: { expiresAt: string | null; revokedAt: string | null },
  now: number,
): { live: boolean; text: string } {
  if (link.revokedAt) return { live: false, text: "revoked" };
  if (link.expiresAt === null) return { live: true, text: "never expires" };
  const left = Date.parse(link.expiresAt) - now;
  if (left <= 0) return { live: false, text: "expired" };
  return { live: true, text: `expires in ${duration(left)}` };
}

function duration(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} days`;
}
