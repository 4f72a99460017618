import { setTimeout as sleep } from "node:timers/promises";

/** Polls until `check` holds (no fixed sleeps in tests); fails naming `what` after `ms`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 15_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(25);
  }
}
