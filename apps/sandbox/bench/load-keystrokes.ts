import * as Y from "yjs";

const now = () => performance.now();

/**
 * Keystroke → other person, on one process's clock. A keystroke is one character, one Yjs item
 * known by its client id and clock; a receiver learns which keystrokes a sync update carries from
 * the update's struct headers (`Y.parseUpdateMeta`: the clock range of each client, no document
 * to integrate into), so a simulated person needs no Y.Doc of the shared file to time what it
 * gets: about 3 µs per single-keystroke update against about 90 µs to apply it to a document of a
 * few thousand characters, and the per-person documents were what made the generator the bottleneck.
 */
export class KeystrokeClock {
  private readonly sent = new Map<number, number>();
  /** Per client id, how many of its keystrokes reached another person (the service took them). */
  private readonly reach = new Map<number, number>();
  samples: number[] = [];
  measuring = false;

  private static key(client: number, clock: number): number {
    // Client ids are 32-bit, clocks stay far below 2^20 here: the key is an exact double.
    return client * 1_048_576 + clock;
  }

  /** `type` inserts one character into `doc` (whose clock then moves by one): now is when it was typed. */
  typed(doc: Y.Doc, type: () => void): void {
    const clock = Y.getState(doc.store, doc.clientID);
    const at = now();
    type();
    if (this.measuring) this.sent.set(KeystrokeClock.key(doc.clientID, clock), at);
  }

  /** A sync update reached a person whose own keystrokes are `own`'s. */
  delivered(update: Uint8Array, own: number): void {
    const at = now();
    const { from, to } = this.seen(update, own);
    if (!this.measuring) return;
    for (const [client, end] of to) {
      if (client === own) continue;
      for (let clock = from.get(client) ?? end; clock < end; clock++) {
        const sentAt = this.sent.get(KeystrokeClock.key(client, clock));
        if (sentAt !== undefined) this.samples.push(at - sentAt);
      }
    }
  }

  /** An update the service sent a person (its first sync, or a change): keystrokes it took. */
  seen(update: Uint8Array, own: number): ReturnType<typeof Y.parseUpdateMeta> {
    const meta = Y.parseUpdateMeta(update);
    for (const [client, end] of meta.to)
      if (client !== own && end > (this.reach.get(client) ?? 0)) this.reach.set(client, end);
    return meta;
  }

  /** Keystrokes typed in this process since `start`. */
  get typedWhileMeasuring(): number {
    return this.sent.size;
  }

  /** How many of `client`'s keystrokes reached another person of this process. */
  reached(client: number): number {
    return this.reach.get(client) ?? 0;
  }

  start(): void {
    this.sent.clear();
    this.samples = [];
    this.measuring = true;
  }
}
