/**
 * The one redaction every audit detail passes (audit-log.ts): an entry must never carry a secret,
 * token or password, whatever a caller put into it.
 */

/** Keys whose values are never kept, whatever they hold. */
const SECRET_KEY = /secret|token|passw|cookie|authori[sz]ation|key/i;
/** Our secrets (admin token, share links, session cookies, login tickets) are 32 random bytes as base64url. */
const OUR_SECRET = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
const BEARER = /\b(bearer|basic)\s+[^\s"',;]+/gi;
/** `scheme://user:password@host`: the credentials in a URL (a private git remote). */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi;

export const REDACTED = "[redacted]";
/** The most one entry's detail takes, as JSON; a larger one is cut (it is a record, not a copy). */
export const MAX_DETAIL_CHARS = 4096;
const MAX_STRING_CHARS = 1024;
const MAX_ITEMS = 50;
const MAX_DEPTH = 4;

function redactString(text: string): string {
  const cut = text.length > MAX_STRING_CHARS ? `${text.slice(0, MAX_STRING_CHARS)}…` : text;
  return cut
    .replace(URL_CREDENTIALS, `$1${REDACTED}@`)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(OUR_SECRET, REDACTED);
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return redactString(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return value;
  if (depth >= MAX_DEPTH) return "…";
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => redactValue(item, depth + 1));
  if (typeof value === "object") {
    const kept = Object.entries(value as Record<string, unknown>)
      .filter(([key]) => !SECRET_KEY.test(key))
      .slice(0, MAX_ITEMS)
      .map(([key, item]) => [redactString(key), redactValue(item, depth + 1)]);
    return Object.fromEntries(kept);
  }
  // Functions, symbols, undefined, bigints: nothing an entry needs.
  return undefined;
}

/** `detail` without secrets and bounded, as the JSON stored; null when there is nothing to keep. */
export function redactDetail(detail: Record<string, unknown> | undefined): string | null {
  if (!detail) return null;
  const redacted = redactValue(detail, 0) as Record<string, unknown>;
  if (Object.keys(redacted).length === 0) return null;
  const text = JSON.stringify(redacted);
  if (text.length <= MAX_DETAIL_CHARS) return text;
  // Cut after redaction, so no half of a secret is left to escape the patterns.
  return JSON.stringify({ cut: true, start: text.slice(0, MAX_DETAIL_CHARS - 64) });
}

/** A free-text field of an entry (a target, a user agent), redacted the same way and bounded. */
export function redactText(text: string | null | undefined, max = 256): string | null {
  if (text === null || text === undefined || text === "") return null;
  return redactString(text).slice(0, max);
}
