import { z } from "zod";

const KEY_BYTES = 32;

/** A 256-bit key written as base64 or base64url (what `openssl rand -base64 32` prints). */
export function decodeSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, /[-_]/.test(trimmed) ? "base64url" : "base64");
  return key.length === KEY_BYTES ? key : undefined;
}

/** CODER_SECRET_KEY: the key that seals the service's secrets at rest (git credentials). */
export const secretKeySchema = z.string().transform((text, ctx) => {
  const key = decodeSecretKey(text);
  if (!key) {
    ctx.addIssue({
      code: "custom",
      message: "is not a 256-bit key in base64 (make one with `openssl rand -base64 32`)",
    });
    return z.NEVER;
  }
  return key;
});
