import { MessageType } from "@hocuspocus/server";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import { describe, expect, it } from "vitest";
import { isDocumentPath, MAX_DOCUMENTS_PER_SOCKET, MessageGuard } from "./message-guard";

const USER = { name: "Ada", color: "#57ab5a", colorLight: "#57ab5a33" };

function frame(document: string, type: number, body?: (e: encoding.Encoder) => void): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, document);
  encoding.writeVarUint(e, type);
  body?.(e);
  return encoding.toUint8Array(e);
}

function awareness(document: string, entries: { id: number; clock: number; state: unknown }[]): Uint8Array {
  return frame(document, MessageType.Awareness, (e) => {
    const update = encoding.createEncoder();
    encoding.writeVarUint(update, entries.length);
    for (const entry of entries) {
      encoding.writeVarUint(update, entry.id);
      encoding.writeVarUint(update, entry.clock);
      encoding.writeVarString(update, JSON.stringify(entry.state));
    }
    encoding.writeVarUint8Array(e, encoding.toUint8Array(update));
  });
}

/** The awareness entries a forwarded frame carries. */
function entriesOf(data: Uint8Array): { id: number; state: unknown }[] {
  const d = decoding.createDecoder(data);
  decoding.readVarString(d);
  decoding.readVarUint(d);
  const update = decoding.createDecoder(decoding.readVarUint8Array(d));
  return Array.from({ length: decoding.readVarUint(update) }, () => {
    const id = decoding.readVarUint(update);
    decoding.readVarUint(update);
    return { id, state: JSON.parse(decoding.readVarString(update)) };
  });
}

const guard = (taken: number[] = []) =>
  new MessageGuard({ user: () => USER, clientTakenElsewhere: (_doc, id) => taken.includes(id) });

describe("the collaboration message guard", () => {
  it("takes only canonical workspace paths as document names", () => {
    for (const good of ["a.txt", "src/a.ts", ".env", "a/.b/c"]) expect(isDocumentPath(good)).toBe(true);
    for (const bad of ["", ".", "..", "../x", "/etc/passwd", "a//b", "./a", "a/../b", "a/", "a\0b"])
      expect(isDocumentPath(bad)).toBe(false);
  });

  it("gives a cursor the service's name and colour and keeps nothing else the page said", () => {
    const verdict = guard().check(
      awareness("a.txt", [
        { id: 7, clock: 1, state: { user: { name: "Mallory", color: "red;x" }, cursor: null, note: "hi" } },
      ]),
    );
    expect(verdict.kind).toBe("forward");
    if (verdict.kind !== "forward") return;
    expect(entriesOf(verdict.data)).toEqual([{ id: 7, state: { user: USER, cursor: null } }]);
  });

  it("lets a socket speak only for its own client id, never for someone else's", () => {
    const g = guard([9]);
    expect(g.check(awareness("a.txt", [{ id: 9, clock: 1, state: {} }])).kind).toBe("drop");
    g.check(awareness("a.txt", [{ id: 7, clock: 1, state: {} }]));
    const mixed = g.check(
      awareness("a.txt", [
        { id: 7, clock: 2, state: {} },
        { id: 8, clock: 1, state: null },
      ]),
    );
    expect(mixed.kind === "forward" && entriesOf(mixed.data).map((e) => e.id)).toEqual([7]);
  });

  it("drops stateless broadcasts and closes on paths outside, garbage and too many documents", () => {
    const g = guard();
    expect(
      g.check(frame("a.txt", MessageType.BroadcastStateless, (e) => encoding.writeVarString(e, "x"))).kind,
    ).toBe("drop");
    expect(g.check(frame("../secret", MessageType.Auth)).kind).toBe("close");
    expect(g.check(new Uint8Array([0xff])).kind).toBe("close");
    const many = guard();
    for (let i = 0; i < MAX_DOCUMENTS_PER_SOCKET; i++)
      expect(many.check(frame(`f${i}`, MessageType.Auth)).kind).toBe("forward");
    expect(many.check(frame("one-more", MessageType.Auth)).kind).toBe("close");
  });
});
