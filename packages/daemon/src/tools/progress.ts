/** A running tool's progress goes out at most this often; the UI only needs the latest state. */
export const PROGRESS_INTERVAL_MS = 100;

export interface ProgressThrottle {
  push(update: Record<string, unknown>): void;
  /** Sends what is still pending and drops any later update (the result has gone out). */
  close(): void;
}

/**
 * Throttles a tool's `ctx.metadata` updates: the first goes out at once, later ones within the
 * interval are merged (newer fields win, as updates carry the state so far) and sent when it ends.
 */
export function throttleProgress(send: (update: Record<string, unknown>) => void): ProgressThrottle {
  let pending: Record<string, unknown> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const sendPending = () => {
    timer = undefined;
    if (pending === undefined) return;
    const update = pending;
    pending = undefined;
    send(update);
    timer = setTimeout(sendPending, PROGRESS_INTERVAL_MS);
  };

  return {
    push(update) {
      if (closed) return;
      pending = { ...pending, ...update };
      if (timer === undefined) sendPending();
    },
    close() {
      if (closed) return;
      clearTimeout(timer);
      timer = undefined;
      if (pending !== undefined) send(pending);
      pending = undefined;
      closed = true;
    },
  };
}
