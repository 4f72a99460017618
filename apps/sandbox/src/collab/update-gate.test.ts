import { COLLAB_TEXT } from "@coder/protocol";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { crowdedAtOnePlace, typedInTurns } from "./testing/crafted-updates";
import { UpdateGate } from "./update-gate";
import { inspectUpdate } from "./update-inspector";

/** The part of a sync frame the gate reads: an update message (y-protocols) with `update`; `step` 1 (its SyncStep2): a catch-up. */
function syncUpdate(update: Uint8Array, step = 2): decoding.Decoder {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, step);
  encoding.writeVarUint8Array(e, update);
  return decoding.createDecoder(encoding.toUint8Array(e));
}

/** The updates `edit` makes on a document that holds `initial` (loaded from another client). */
function updatesOf(initial: string, edit: (text: Y.Text) => void): Uint8Array[] {
  const disk = new Y.Doc();
  disk.getText(COLLAB_TEXT).insert(0, initial);
  const page = new Y.Doc();
  Y.applyUpdate(page, Y.encodeStateAsUpdate(disk));
  const updates: Uint8Array[] = [];
  page.on("update", (update: Uint8Array) => updates.push(update));
  edit(page.getText(COLLAB_TEXT));
  return updates;
}

describe("the Yjs update gate", () => {
  it("lets typing, a 2 MB paste and a replace-all through", () => {
    const gate = new UpdateGate();
    const typing = updatesOf("hello world\n", (text) => {
      for (const ch of "typed one key at a time ") text.insert(6, ch);
    });
    const paste = updatesOf("", (text) => text.insert(0, "pasted line of a big file\n".repeat(80_000)));
    const source = "let foo = 1;\n".repeat(5000);
    const replaceAll = updatesOf(source, (text) =>
      text.doc?.transact(() => {
        for (let i = 4999; i >= 0; i--) {
          text.delete(i * 13 + 4, 3);
          text.insert(i * 13 + 4, "bar");
        }
      }),
    );
    expect(paste[0]?.byteLength).toBeGreaterThan(2_000_000);
    for (const update of [...typing, ...paste, ...replaceAll])
      expect(gate.check(syncUpdate(update))).toBeUndefined();
  });

  it("refuses two client ids typing in turns, and thousands inserting at one place", () => {
    const turns = typedInTurns(5000);
    const crowded = crowdedAtOnePlace(5000);
    expect(turns.byteLength).toBeLessThan(40_000);
    expect(crowded.byteLength).toBeLessThan(90_000);
    expect(inspectUpdate(turns)).toMatchObject({ clients: 2, interleaved: 4999 });
    expect(inspectUpdate(crowded)).toMatchObject({ clients: 5000, crowdedOrigin: 5000 });
    expect(new UpdateGate().check(syncUpdate(turns))).toMatchObject({ kind: "close" });
    expect(new UpdateGate().check(syncUpdate(crowded))).toMatchObject({ kind: "close" });
    // Split into small updates, the crowd still runs out of conflicting insertions.
    const gate = new UpdateGate();
    const pieces = Array.from({ length: 20 }, () => gate.check(syncUpdate(crowdedAtOnePlace(8))));
    expect(pieces).toContainEqual(expect.objectContaining({ kind: "close" }));
  });

  it("lets a returning tab's catch-up of typing here and there through, once a socket", () => {
    // 3000 keystrokes at random places of a 48 000-character file, sent whole as the sync's answer.
    const [away] = updatesOf("x".repeat(48_000), (text) =>
      text.doc?.transact(() => {
        for (let i = 0; i < 3000; i++) text.insert(Math.floor(Math.random() * (text.length + 1)), "w");
      }),
    );
    const catchUp = away as Uint8Array;
    expect(inspectUpdate(catchUp)?.conflicting).toBeGreaterThan(64);
    const gate = new UpdateGate();
    expect(gate.check(syncUpdate(catchUp, 1))).toBeUndefined();
    expect(gate.check(syncUpdate(catchUp, 1))).toMatchObject({ kind: "close" });
    expect(new UpdateGate().check(syncUpdate(catchUp))).toMatchObject({ kind: "close" });
  });

  it("closes a socket whose updates took more than its CPU budget to apply", () => {
    const gate = new UpdateGate();
    const typing = updatesOf("a\n", (text) => text.insert(0, "b"))[0] as Uint8Array;
    gate.spent(1500);
    expect(gate.check(syncUpdate(typing))).toBeUndefined();
    gate.spent(1500);
    expect(gate.check(syncUpdate(typing))).toMatchObject({ kind: "close" });
  });

  it("refuses what is not an update", () => {
    expect(new UpdateGate().check(syncUpdate(new Uint8Array([5, 200, 1])))).toMatchObject({ kind: "close" });
  });
});
