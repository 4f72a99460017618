import { hash, verify } from "@node-rs/argon2";

/**
 * argon2id with OWASP's first recommended setting (19 MiB of memory, 2 passes, 1 lane): about
 * 10–60 ms a hash on this machine. `@node-rs/argon2` runs each hash as an async task on libuv's
 * thread pool, so the event loop keeps serving while a password is checked. (The algorithm is
 * the library's default, argon2id: its `Algorithm` is a const enum that isolated modules cannot use.)
 */
export const ARGON2ID = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

/**
 * Checked when there is no hash to check (no such account), so that costs the same work as a
 * wrong password from the first request on. The hash of a random value no one kept, made with
 * `ARGON2ID` (password-hash.test.ts keeps the two in step).
 */
export const STAND_IN_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$HUKhhlNJaHmR/AeI31diGw$OZeig0eQBJOB610YwvVLzA19w3BgZ7ln/ERDBrTmpCc";

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

/**
 * Whether `password` is the one `stored` was made from. Without a stored hash (an unknown address,
 * an account without a password) the stand-in is checked all the same and the answer is false,
 * so a wrong address takes as long as a wrong password.
 */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  const matches = await verify(stored ?? STAND_IN_HASH, password);
  return stored !== null && matches;
}
