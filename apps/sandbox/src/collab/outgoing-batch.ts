import { MessageType } from "@hocuspocus/server";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import * as syncProtocol from "y-protocols/sync";
import * as Y from "yjs";

type Sent = (error?: Error) => void;

/**
 * What a frame Hocuspocus sends is: a document update or awareness change (batched); the
 * acknowledgement of the socket's own update (it goes at once: it says nothing about the held
 * frames, and flushing for it would send each typing person's batch separately, every keystroke);
 * or anything else (it goes after what is held).
 */
type Outgoing =
  | { kind: "update"; document: string; update: Uint8Array }
  | { kind: "awareness"; document: string; update: Uint8Array }
  | { kind: "acknowledgement" }
  | { kind: "other" };

function classify(data: Uint8Array): Outgoing {
  try {
    const decoder = decoding.createDecoder(data);
    const document = decoding.readVarString(decoder);
    const type = decoding.readVarUint(decoder);
    if (type === MessageType.Awareness)
      return { kind: "awareness", document, update: decoding.readVarUint8Array(decoder) };
    if (type === MessageType.SyncStatus) return { kind: "acknowledgement" };
    if (type === MessageType.Sync && decoding.readVarUint(decoder) === syncProtocol.messageYjsUpdate)
      return { kind: "update", document, update: decoding.readVarUint8Array(decoder) };
  } catch {
    // Not ours to understand: it goes out as it is.
  }
  return { kind: "other" };
}

/** One awareness entry as y-protocols encodes it: the client, its clock and its state as JSON. */
interface AwarenessEntry {
  clock: number;
  state: string;
}

function readAwareness(update: Uint8Array, into: Map<number, AwarenessEntry>): void {
  const decoder = decoding.createDecoder(update);
  const count = decoding.readVarUint(decoder);
  for (let i = 0; i < count; i++) {
    const client = decoding.readVarUint(decoder);
    const clock = decoding.readVarUint(decoder);
    const state = decoding.readVarString(decoder);
    // Frames go out in the order the states changed: the later entry of a client is its newer state.
    into.set(client, { clock, state });
  }
}

function frame(document: string, write: (encoder: encoding.Encoder) => void): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, document);
  write(encoder);
  return encoding.toUint8Array(encoder);
}

function updateFrame(document: string, update: Uint8Array): Uint8Array {
  return frame(document, (encoder) => {
    encoding.writeVarUint(encoder, MessageType.Sync);
    syncProtocol.writeUpdate(encoder, update);
  });
}

function awarenessFrame(document: string, entries: Map<number, AwarenessEntry>): Uint8Array {
  const update = encoding.createEncoder();
  encoding.writeVarUint(update, entries.size);
  for (const [client, { clock, state }] of entries) {
    encoding.writeVarUint(update, client);
    encoding.writeVarUint(update, clock);
    encoding.writeVarString(update, state);
  }
  return frame(document, (encoder) => {
    encoding.writeVarUint(encoder, MessageType.Awareness);
    encoding.writeVarUint8Array(encoder, encoding.toUint8Array(update));
  });
}

/** Two lists of the same update objects, in the same order. */
function sameUpdates(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  return a.length === b.length && a.every((update, i) => update === b[i]);
}

/**
 * Hocuspocus sends every document update and awareness change to every connection as a frame of
 * its own: with 25 people typing 5 keys a second that is 3 125 frames and writes a second for one
 * document. The batches of one workspace's sockets hold those frames until the end of the event
 * loop's turn and then send each socket one merged update and one awareness change per document.
 * A quiet document's frames leave one turn later than before; a busy one's updates that arrived in
 * one turn leave as one frame. Every socket of a document gets the same updates in a turn, so the
 * merge is made once per turn and shared.
 *
 * Hocuspocus 3 encodes a broadcast afresh for each connection (`message.toUint8Array()` in its
 * connections loop: equal bytes, a new array each time), one connection after the other. So a
 * frame equal to the one just classified is that broadcast again and gets the same classification,
 * whose update is then the same object in every socket's list: the shared merge is found by the
 * identity of its updates, without reading their bytes again.
 */
export class OutgoingBatches {
  private readonly waiting = new Set<OutgoingBatch>();
  /** The merges of this turn, by their first update. */
  private readonly merged = new Map<Uint8Array, { updates: readonly Uint8Array[]; frame: Uint8Array }[]>();
  private last: { data: Uint8Array; outgoing: Outgoing } | undefined;
  private scheduled = false;

  /** The batch of one socket, writing through `write`. */
  batch(write: (data: Uint8Array, sent?: Sent) => void): OutgoingBatch {
    return new OutgoingBatch(write, this);
  }

  /** @internal What `data` is; a frame equal to the previous one gets the same answer (see above). */
  classify(data: Uint8Array): Outgoing {
    if (this.last && Buffer.compare(this.last.data, data) === 0) return this.last.outgoing;
    const outgoing = classify(data);
    this.last = { data, outgoing };
    return outgoing;
  }

  /** @internal `batch` holds frames: they go out at the end of this turn. */
  due(batch: OutgoingBatch): void {
    this.waiting.add(batch);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      // A batch that holds frames again while these flush waits for the next turn, not for nothing.
      const waiting = [...this.waiting];
      this.waiting.clear();
      for (const batch of waiting) batch.flush();
      this.merged.clear();
    });
  }

  /** @internal The updates merged into one frame, once per turn for lists of the same updates. */
  mergedFrame(document: string, updates: readonly Uint8Array[]): Uint8Array {
    const first = updates[0] as Uint8Array;
    if (updates.length === 1) return updateFrame(document, first);
    let merges = this.merged.get(first);
    if (!merges) {
      merges = [];
      this.merged.set(first, merges);
    }
    let merge = merges.find((m) => sameUpdates(m.updates, updates));
    if (!merge) {
      merge = {
        updates: [...updates],
        frame: updateFrame(document, Y.mergeUpdates(updates as Uint8Array[])),
      };
      merges.push(merge);
    }
    return merge.frame;
  }
}

/** One socket's held frames (see OutgoingBatches). */
export class OutgoingBatch {
  private readonly updates = new Map<string, Uint8Array[]>();
  private readonly awareness = new Map<string, Map<number, AwarenessEntry>>();
  private callbacks: Sent[] = [];

  constructor(
    private readonly write: (data: Uint8Array, sent?: Sent) => void,
    private readonly batches: OutgoingBatches,
  ) {}

  send(data: Uint8Array, sent?: Sent): void {
    const outgoing = this.batches.classify(data);
    if (outgoing.kind === "acknowledgement" || outgoing.kind === "other") {
      if (outgoing.kind === "other") this.flush();
      this.write(data, sent);
      return;
    }
    if (outgoing.kind === "update") {
      const list = this.updates.get(outgoing.document);
      if (list) list.push(outgoing.update);
      else this.updates.set(outgoing.document, [outgoing.update]);
    } else {
      let entries = this.awareness.get(outgoing.document);
      if (!entries) {
        entries = new Map();
        this.awareness.set(outgoing.document, entries);
      }
      readAwareness(outgoing.update, entries);
    }
    if (sent) this.callbacks.push(sent);
    this.batches.due(this);
  }

  /** Sends what is held: updates first, so cursors arrive after the text they point into. */
  flush(): void {
    if (this.updates.size === 0 && this.awareness.size === 0) return;
    const frames: Uint8Array[] = [];
    for (const [document, updates] of this.updates) frames.push(this.batches.mergedFrame(document, updates));
    for (const [document, entries] of this.awareness) frames.push(awarenessFrame(document, entries));
    this.updates.clear();
    this.awareness.clear();
    const callbacks = this.callbacks;
    this.callbacks = [];
    // Hocuspocus closes a connection whose send failed: each held frame's sender hears how it went.
    const sent =
      callbacks.length > 0
        ? (error?: Error) => {
            for (const callback of callbacks) callback(error);
          }
        : undefined;
    for (const [i, data] of frames.entries()) this.write(data, i === frames.length - 1 ? sent : undefined);
  }
}
