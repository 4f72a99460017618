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

const guard = (taken: number[] = [], earlyRoom = () => 1024 * 1024) =>
  new MessageGuard({ user: () => USER, clientTakenElsewhere: (_doc, id) => taken.includes(id), earlyRoom });

/** A guard whose socket has `document` open, as after its Auth and Hocuspocus's connection. */
function connected(g: MessageGuard, document: string): MessageGuard {
  g.check(frame(document, MessageType.Auth));
  g.documentAllowed(document);
  g.documentConnected(document);
  return g;
}

/** What Hocuspocus answers when it refuses `document`. */
const permissionDenied = (document: string) =>
  frame(document, MessageType.Auth, (e) => {
    encoding.writeVarUint(e, 1);
    encoding.writeVarString(e, "too-many-documents");
  });

const update = (document: string, bytes: number) =>
  frame(document, MessageType.Sync, (e) => {
    encoding.writeVarUint(e, 2);
    encoding.writeVarUint8Array(e, new Uint8Array(bytes));
  });

describe("the collaboration message guard", () => {
  it("takes only canonical workspace paths as document names", () => {
    for (const good of ["a.txt", "src/a.ts", ".env", "a/.b/c"]) expect(isDocumentPath(good)).toBe(true);
    for (const bad of ["", ".", "..", "../x", "/etc/passwd", "a//b", "./a", "a/../b", "a/", "a\0b"])
      expect(isDocumentPath(bad)).toBe(false);
  });

  it("gives a cursor the service's name and colour and keeps nothing else the page said", () => {
    const verdict = connected(guard(), "a.txt").check(
      awareness("a.txt", [
        { id: 7, clock: 1, state: { user: { name: "Mallory", color: "red;x" }, cursor: null, note: "hi" } },
      ]),
    );
    expect(verdict.kind).toBe("forward");
    if (verdict.kind !== "forward") return;
    expect(entriesOf(verdict.data)).toEqual([{ id: 7, state: { user: USER, cursor: null } }]);
  });

  it("lets a socket speak only for its own client id, never for someone else's", () => {
    const g = connected(guard([9]), "a.txt");
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
    const g = connected(guard(), "a.txt");
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

  it("passes on only a socket's newest cursor, however many entries its frame repeats", () => {
    const g = connected(guard(), "a.txt");
    const repeated = Array.from({ length: 1000 }, (_, i) => ({ id: 7, clock: i, state: { cursor: null } }));
    const verdict = g.check(awareness("a.txt", repeated));
    expect(verdict.kind === "forward" && entriesOf(verdict.data)).toEqual([
      { id: 7, state: { user: USER, cursor: null } },
    ]);
  });

  it("passes nothing for a document before its Auth, so nothing waits in Hocuspocus for it", () => {
    const g = guard();
    for (let i = 0; i < 4; i++) expect(g.check(update("never-asked.txt", 1_000_000)).kind).toBe("drop");
    expect(g.earlyBytes).toBe(0);
    expect([...g.heldDocuments()]).toEqual([]);
  });

  it("bounds what waits for documents still opening by the person's room, and frees it when they close", () => {
    let room = 10_000;
    const g = guard([], () => room);
    const auth = frame("a.txt", MessageType.Auth);
    expect(g.check(auth).kind).toBe("forward");
    expect(g.check(update("a.txt", 100)).kind).toBe("forward");
    expect(g.earlyBytes).toBeGreaterThan(100);
    g.documentAllowed("a.txt");
    expect([...g.heldDocuments()]).toEqual(["a.txt"]);
    g.documentClosed("a.txt");
    expect(g.earlyBytes).toBe(0);
    room = 50;
    expect(g.check(auth).kind).toBe("forward");
    expect(g.check(update("a.txt", 100)).kind).toBe("close");
  });

  it("passes nothing more for a document Hocuspocus refused, and stops counting it as held", () => {
    const g = guard();
    g.check(frame("a.txt", MessageType.Auth));
    g.documentAllowed("a.txt");
    g.sent(permissionDenied("a.txt"));
    expect([...g.heldDocuments()]).toEqual([]);
    const early = g.earlyBytes;
    expect(g.check(update("a.txt", 1000)).kind).toBe("drop");
    expect(g.earlyBytes).toBe(early);
  });
});
