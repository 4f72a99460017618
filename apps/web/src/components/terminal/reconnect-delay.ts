const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;

/** Exponential backoff for the n-th reconnect attempt (0-based), capped so a fix is noticed soon. */
export function reconnectDelay(attempt: number): number {
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempt));
}
