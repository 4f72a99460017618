import type { LiveBus, Topic } from "./live-bus";

/**
 * Yields once at once and then once after each notice of `topic` for `key` (or a notice that
 * anything may have changed), until `signal` aborts. Notices that arrive while the consumer is busy
 * collapse into one wake-up: the consumer re-reads the truth, so it never needs one per notice.
 */
export async function* noticeWakeups(
  bus: LiveBus,
  topic: Topic,
  key: string,
  signal: AbortSignal,
): AsyncGenerator<void> {
  let changed = true;
  let wake: (() => void) | undefined;
  const stopListening = bus.listen(topic, (notice) => {
    if (notice.key !== null && notice.key !== key) return;
    changed = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener("abort", onAbort);
  try {
    while (!signal.aborted) {
      if (!changed) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      changed = false;
      yield;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    stopListening();
  }
}
