import { OutgoingMessage } from "@hocuspocus/server";
import * as decoding from "lib0/decoding";
import { describe, expect, it } from "vitest";
import * as syncProtocol from "y-protocols/sync";
import * as Y from "yjs";
import { OutgoingBatches } from "./outgoing-batch";

const DOCUMENT = "shared.txt";
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Sockets that note what they were sent. */
function sockets(batches: OutgoingBatches, count: number) {
  return Array.from({ length: count }, () => {
    const written: Uint8Array[] = [];
    return { written, batch: batches.batch((data) => written.push(data)) };
  });
}

/** What Hocuspocus 3 does with a document update: one freshly encoded frame per connection. */
function broadcast(batches: ReturnType<typeof sockets>, update: Uint8Array): void {
  const message = new OutgoingMessage(DOCUMENT).createSyncMessage().writeUpdate(update);
  for (const { batch } of batches) batch.send(message.toUint8Array());
}

/** The text a fresh document holds after the update frames. */
function textOf(frames: Uint8Array[]): string {
  const doc = new Y.Doc();
  for (const data of frames) {
    const decoder = decoding.createDecoder(data);
    expect(decoding.readVarString(decoder)).toBe(DOCUMENT);
    decoding.readVarUint(decoder); // the sync message type
    expect(decoding.readVarUint(decoder)).toBe(syncProtocol.messageYjsUpdate);
    Y.applyUpdate(doc, decoding.readVarUint8Array(decoder));
  }
  return doc.getText("t").toString();
}

describe("outgoing batches", () => {
  it("send every socket of a document one frame a turn with all its typing, merged once for all of them", async () => {
    const batches = new OutgoingBatches();
    const people = sockets(batches, 5);
    const typist = new Y.Doc();
    typist.on("update", (update: Uint8Array) => broadcast(people, update));
    for (const key of "hello") typist.getText("t").insert(typist.getText("t").length, key);
    await nextTurn();
    for (const { written } of people) {
      expect(written).toHaveLength(1);
      // The same merged frame, not five merges of equal updates.
      expect(written[0]).toBe(people[0]?.written[0]);
    }
    expect(textOf(people[0]?.written ?? [])).toBe("hello");
  });

  it("merge apart the updates of sockets that got different ones in a turn", async () => {
    const batches = new OutgoingBatches();
    const [early, late] = sockets(batches, 2);
    if (!early || !late) throw new Error("two sockets");
    const typist = new Y.Doc();
    const text = typist.getText("t");
    let first: Uint8Array | undefined;
    // The late socket joins after the first keystroke (it gets that one when it syncs).
    typist.on("update", (update: Uint8Array) => {
      first ??= update;
      broadcast(text.length === 1 ? [early] : [early, late], update);
    });
    for (const key of "abc") text.insert(text.length, key);
    await nextTurn();
    expect(early.written).toHaveLength(1);
    expect(late.written).toHaveLength(1);
    expect(late.written[0]).not.toBe(early.written[0]);
    expect(textOf(early.written)).toBe("abc");
    const synced = new OutgoingMessage(DOCUMENT).createSyncMessage().writeUpdate(first as Uint8Array);
    expect(textOf([synced.toUint8Array(), ...late.written])).toBe("abc");
  });
});
