import { hash, verify } from "@node-rs/argon2";

/**
 * argon2id with OWASP's first recommended setting (19 MiB of memory, 2 passes, 1 lane): about
 * 20–60 ms a hash on this machine. `@node-rs/argon2` runs each hash as an async task on libuv's
 * thread pool, so the event loop keeps serving while a password is checked. (The algorithm is
 * the library's default, argon2id: its `Algorithm` is a const enum that isolated modules cannot use.)
 */
const ARGON2ID = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

/** Checked against when there is no hash to check (no such account): the same work, so the same time. */
let standIn: Promise<string> | undefined;

/**
 * Whether `password` is the one `stored` was made from. Without a stored hash (an unknown address,
 * an account without a password) a stand-in hash is checked all the same and the answer is false,
 * so a wrong address takes as long as a wrong password.
 */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    standIn ??= hashPassword("a password no account has");
    await verify(await standIn, password);
    return false;
  }
  return verify(stored, password);
}
