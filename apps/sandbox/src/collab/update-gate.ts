import * as decoding from "lib0/decoding";
import type { GuardVerdict } from "./guard-verdict";
import { inspectUpdate } from "./update-inspector";

/*
 * Limits on the Yjs updates one socket sends, checked before Hocuspocus integrates them. What a
 * real editor sends, and why these leave it room:
 * - typing: one client id, one struct per keystroke (or per run of them), rarely two items at one
 *   place; a paste, even of a whole 2 MB file, is one struct;
 * - a replace-all or a reformat: one struct per changed place (thousands), each after a different
 *   neighbour, no conflicts;
 * - a reconnect's sync: only what the service has not seen, from the page's own client id (a
 *   second one only if Yjs had to change it);
 * - a first sync of a large document goes the other way (the service sends it), nothing to bound.
 * An attacker's update instead carries thousands of client ids, items crowding one place, or
 * clients taking turns item by item (which builds the runs that conflicting insertions walk).
 */
/** Structs in one update: a replace-all of 50 000 places still passes. */
const MAX_UPDATE_STRUCTS = 50_000;
/** Deleted ranges in one update (cheap each, but not unbounded). */
const MAX_UPDATE_DELETIONS = 50_000;
/** Client ids in one update: the page's own, and room for it to have changed. */
const MAX_UPDATE_CLIENTS = 4;
/** Items after another client's item of the same update (a page's own two ids, in turn, rarely). */
const MAX_INTERLEAVED = 64;
/** Items inserted at one place in one update (each is ordered against all of the others). */
const MAX_CROWDED_ORIGIN = 16;
/** Conflicting insertions per second (sustained, and as a burst). People typing make almost none. */
const CONFLICTS_PER_SECOND = 16;
const CONFLICT_BURST = 64;
/** Structs per second (sustained, and as a burst): bounds how fast a socket can grow a document's runs. */
const STRUCTS_PER_SECOND = 25_000;
const STRUCT_BURST = 100_000;
/**
 * Time the service may spend integrating one socket's updates: real editing costs milliseconds a
 * second. A socket whose updates took more than this in the window is closed at its next frame.
 */
const CPU_BUDGET_MS = 2000;
const CPU_WINDOW_MS = 10_000;

/** Sync message types (y-protocols): a state vector, then updates. */
const SYNC_STEP_1 = 0;
/** The answer to the service's state vector: a returning tab's catch-up, all it typed while away. */
const SYNC_STEP_2 = 1;

class TokenBucket {
  private tokens: number;
  private at = performance.now();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  take(count: number): boolean {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (count > this.tokens) return false;
    this.tokens -= count;
    return true;
  }
}

const close = (why: string): GuardVerdict => ({ kind: "close", why });

/**
 * One socket's Yjs updates, before and after integration: each update's shape is checked
 * (update-inspector), conflicting insertions and structs are rate-limited per socket, and the
 * time their integration took is counted against a CPU budget.
 */
export class UpdateGate {
  private readonly conflicts = new TokenBucket(CONFLICTS_PER_SECOND, CONFLICT_BURST);
  private readonly structs = new TokenBucket(STRUCTS_PER_SECOND, STRUCT_BURST);
  private readonly spending: { at: number; ms: number }[] = [];
  private spentInWindow = 0;
  /** Whether this socket has sent its catch-up already. */
  private caughtUp = false;

  /** A sync message (`decoder` just after its message type): undefined to let it through. */
  check(decoder: decoding.Decoder): GuardVerdict | undefined {
    if (this.overBudget()) return close("updates that took too long to apply");
    let update: Uint8Array;
    let step: number;
    try {
      step = decoding.readVarUint(decoder);
      if (step === SYNC_STEP_1) return undefined;
      update = decoding.readVarUint8Array(decoder);
    } catch {
      return close("a malformed sync message");
    }
    const shape = inspectUpdate(update);
    if (!shape) return close("a malformed update");
    if (shape.structs > MAX_UPDATE_STRUCTS) return close(`an update of ${shape.structs} structs`);
    if (shape.deletions > MAX_UPDATE_DELETIONS) return close(`an update of ${shape.deletions} deletions`);
    if (shape.clients > MAX_UPDATE_CLIENTS) return close(`an update from ${shape.clients} client ids`);
    if (shape.interleaved > MAX_INTERLEAVED)
      return close(`an update of ${shape.interleaved} items typed in turns by several client ids`);
    if (shape.crowdedOrigin > MAX_CROWDED_ORIGIN)
      return close(`an update inserting ${shape.crowdedOrigin} items at one place`);
    // A catch-up holds every place a person went back to while away, each a conflict with what
    // they typed there before: charged to the rate it would be refused for ever (the provider sends
    // it again, grown, at each reconnect), and so typing would be lost. One a socket, still bounded
    // by the shape above, the structs' rate and the CPU budget.
    const catchUp = step === SYNC_STEP_2 && !this.caughtUp;
    if (catchUp) this.caughtUp = true;
    else if (!this.conflicts.take(shape.conflicting)) return close("too many conflicting insertions");
    if (!this.structs.take(shape.structs)) return close("updates faster than anyone edits");
    return undefined;
  }

  /** Integrating one of this socket's updates took `ms`. */
  spent(ms: number): void {
    const now = performance.now();
    this.spending.push({ at: now, ms });
    this.spentInWindow += ms;
  }

  private overBudget(): boolean {
    const since = performance.now() - CPU_WINDOW_MS;
    while (this.spending.length > 0 && (this.spending[0]?.at ?? 0) < since)
      this.spentInWindow -= this.spending.shift()?.ms ?? 0;
    return this.spentInWindow > CPU_BUDGET_MS;
  }
}
