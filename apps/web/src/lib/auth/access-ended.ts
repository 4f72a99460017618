import { AccessCloseCode, accessRefusal } from "@coder/protocol";

/**
 * Why this page's access ended for good (a guest's link revoked or expired, the workspace
 * deleted), reported by whichever connection learned it first: an API answer, a subscription
 * or a socket's close code. The page shows one notice over everything.
 */
let ended: AccessCloseCode | null = null;
const listeners = new Set<() => void>();

/** Codes after which nothing on the page works and logging in does not help. */
const FINAL: ReadonlySet<number> = new Set([
  AccessCloseCode.LinkRevoked,
  AccessCloseCode.LinkExpired,
  AccessCloseCode.ShareRevoked,
  AccessCloseCode.NoWorkspace,
]);

/** Records `code` when it ends access for good; returns whether it did. */
export function reportAccessEnded(code: number): boolean {
  if (!FINAL.has(code)) return false;
  if (ended === null) {
    ended = code as AccessCloseCode;
    for (const listener of listeners) listener();
  }
  return true;
}

/** The close code a refused tRPC call carries in `data.accessCode`, if any. */
export function accessCodeOf(error: unknown): number | null {
  const data = (error as { data?: { accessCode?: unknown } } | null)?.data;
  return typeof data?.accessCode === "number" ? data.accessCode : null;
}

export const accessEnded = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot: (): AccessCloseCode | null => ended,
  message: (code: AccessCloseCode): string => accessRefusal(code)?.message ?? "Your access ended.",
};
