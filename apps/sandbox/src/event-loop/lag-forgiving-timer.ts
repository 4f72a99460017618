import { performance } from "node:perf_hooks";
import type { EventLoopLag } from "./event-loop-lag";

/**
 * The most lag a wait forgives, as a multiple of the wait: a 10 s ping waits at most a minute
 * however far behind the service fell (the stall measured in issue 23 lasted 49 s), so a service
 * that never catches up still learns of a daemon that is gone.
 */
const MOST_FORGIVEN = 5;

/**
 * Calls `expired` once `ms` passed in which the service's own loop was on time: when the timer
 * fires, the loop's lag since it was armed (what the service was too busy to notice, an answer
 * waiting unread behind its backlog) is waited for again, up to MOST_FORGIVEN × `ms` of lag in all
 * (a stall's first 100 ms, before the lag's timer was due, are not seen as lag). Returns the cancel.
 */
export function lagForgivingTimer(ms: number, lag: EventLoopLag, expired: () => void): () => void {
  const armedAt = performance.now();
  const lagAtArming = lag.total();
  const check = () => {
    const forgiven = Math.min(lag.total() - lagAtArming, MOST_FORGIVEN * ms);
    const left = armedAt + ms + forgiven - performance.now();
    if (left < 1) return expired();
    timer = setTimeout(check, left);
  };
  let timer = setTimeout(check, ms);
  return () => clearTimeout(timer);
}
