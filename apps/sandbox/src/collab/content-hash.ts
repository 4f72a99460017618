import { createHash } from "node:crypto";

/**
 * A text's content hash as the daemon computes it for a conditional write (SHA-256 of the UTF-8
 * bytes, base64url). Taken once per write-back, not per update: hashing a 2 MB text costs tens of
 * milliseconds on the event loop.
 */
export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}
