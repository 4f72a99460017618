import { setTimeout as sleep } from "node:timers/promises";

/**
 * Waits until `check` holds for as long as `progress` keeps changing: on a saturated machine a
 * join of hundreds of people is slow but moving, and only a wait that stopped moving for `stallMs`
 * is a failure (a fixed deadline killed the run at 200 people while the machine was still
 * starting terminals). The error says how far it got.
 */
export async function patiently(
  check: () => boolean,
  what: string,
  progress: () => number,
  stallMs: number,
): Promise<void> {
  let seen = progress();
  let movedAt = Date.now();
  while (!check()) {
    const now = progress();
    if (now !== seen) {
      seen = now;
      movedAt = Date.now();
    } else if (Date.now() - movedAt > stallMs) {
      throw new Error(
        `no progress for ${Math.round(stallMs / 1000)} s waiting until ${what} (progress ${now})`,
      );
    }
    await sleep(50);
  }
}
