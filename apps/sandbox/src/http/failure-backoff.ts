/** The most client addresses remembered; the oldest is forgotten first. */
const MAX_ADDRESSES = 10_000;
/** A failure this long ago no longer counts. */
const FORGET_MS = 15 * 60_000;
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 8_000;

/**
 * Slows down repeated failures (wrong share-link secrets) from one client address: each failure
 * doubles the wait before the next answer to that address, up to a bound. In memory and bounded,
 * so a flood of addresses costs a fixed amount; a success forgets the address.
 */
export class FailureBackoff {
  private readonly failures = new Map<string, { count: number; at: number }>();

  /** How long to hold the next answer to `address`, in milliseconds. */
  delayFor(address: string): number {
    const entry = this.failures.get(address);
    if (!entry || Date.now() - entry.at > FORGET_MS) return 0;
    return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (entry.count - 1));
  }

  fail(address: string): void {
    const entry = this.failures.get(address);
    const count = entry && Date.now() - entry.at <= FORGET_MS ? entry.count + 1 : 1;
    // Re-inserting moves the address to the end, so the map's first key is the oldest.
    this.failures.delete(address);
    this.failures.set(address, { count, at: Date.now() });
    if (this.failures.size > MAX_ADDRESSES) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  succeed(address: string): void {
    this.failures.delete(address);
  }
}
