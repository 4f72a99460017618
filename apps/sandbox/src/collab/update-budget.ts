import type { Principal } from "../auth/principal";

/** Bytes of updates one load of a document accepts; past it the sender is cut off (tombstones cost memory). */
export const MAX_UPDATE_BYTES_PER_LOAD = 64 * 1024 * 1024;
/** Of those, guests together may send at most this many: the rest is always the owner's. */
export const GUEST_UPDATE_BYTES_PER_LOAD = 32 * 1024 * 1024;
/** And one guest at most this many, so one guest cannot use up the others' share alone. */
export const MAX_UPDATE_BYTES_PER_GUEST = 16 * 1024 * 1024;

/**
 * The update bytes one load of a document has accepted, and from whom. Only accepted updates
 * count: a refused one (too large, or over its sender's budget) costs no memory, and a viewer's
 * are never applied, so neither can use up the budget of the people editing.
 */
export class UpdateBudget {
  private total = 0;
  private guests = 0;
  private readonly byGuest = new Map<string, number>();

  /** Counts `bytes` from `sender` if this load may still take them; false (nothing counted) if not. */
  take(sender: Principal, bytes: number): boolean {
    if (this.total + bytes > MAX_UPDATE_BYTES_PER_LOAD) return false;
    if (sender.kind === "guest") {
      const mine = this.byGuest.get(sender.sessionId) ?? 0;
      if (mine + bytes > MAX_UPDATE_BYTES_PER_GUEST || this.guests + bytes > GUEST_UPDATE_BYTES_PER_LOAD)
        return false;
      this.byGuest.set(sender.sessionId, mine + bytes);
      this.guests += bytes;
    }
    this.total += bytes;
    return true;
  }
}
