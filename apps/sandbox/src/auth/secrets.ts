import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A random secret of 256 bits, URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Secrets here are 256-bit random values, so a plain SHA-256 is a sound way to store them: there is
 * nothing to brute-force that a slow hash would protect.
 */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}
