import { COLLAB_TEXT } from "@coder/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { DiskMerge } from "./disk-merge";

/**
 * The service's document (`server`), two browsers (`a`, `b`) connected to it through FIFO channels
 * that deliver when the test says so, and the file on disk, which changes by itself. Every
 * character anyone inserts is unique (browsers: the BMP private-use area; the disk: astral
 * characters, i.e. surrogate pairs that share their high half), so the test can say exactly whose
 * change survived, which vanished and which appears twice.
 */
class World {
  readonly server = new Y.Doc();
  readonly clients = [new Y.Doc(), new Y.Doc()];
  /** Updates waiting: [client→server, server→client] per client. */
  readonly up: Uint8Array[][] = [[], []];
  readonly down: Uint8Array[][] = [[], []];
  disk: string;
  readonly merge: DiskMerge;
  /** Characters someone deleted on purpose (a browser that saw them, or the disk). */
  readonly deleted = new Set<string>();
  readonly inserted = new Set<string>();
  private nextClientChar = 0xe000;
  private nextDiskChar = 0xf0000;

  constructor(initial: string) {
    this.disk = initial;
    for (const ch of initial) this.inserted.add(ch);
    this.merge = new DiskMerge(this.server, initial);
    this.server.on("update", (update: Uint8Array, origin: unknown) => {
      this.clients.forEach((_, i) => {
        if (origin !== i) this.down[i]?.push(update);
      });
    });
    this.clients.forEach((doc, i) => {
      doc.on("update", (update: Uint8Array, origin: unknown) => {
        if (origin !== "net") this.up[i]?.push(update);
      });
      // The browser's first sync.
      Y.applyUpdate(doc, Y.encodeStateAsUpdate(this.server), "net");
    });
  }

  text(doc: Y.Doc): string {
    return doc.getText(COLLAB_TEXT).toString();
  }

  type(client: number, at: number, count: number): void {
    const doc = this.clients[client] as Y.Doc;
    const points = Array.from(this.text(doc));
    const offset = points.slice(0, Math.floor(at * (points.length + 1))).join("").length;
    let chars = "";
    for (let i = 0; i < count; i++) chars += String.fromCodePoint(this.nextClientChar++);
    for (const ch of chars) this.inserted.add(ch);
    doc.getText(COLLAB_TEXT).insert(offset, chars);
  }

  erase(client: number, at: number, length: number): void {
    const doc = this.clients[client] as Y.Doc;
    const points = Array.from(this.text(doc));
    const start = Math.floor(at * points.length);
    const gone = points.slice(start, start + length);
    if (gone.length === 0) return;
    for (const ch of gone) this.deleted.add(ch);
    doc.getText(COLLAB_TEXT).delete(points.slice(0, start).join("").length, gone.join("").length);
  }

  deliver(channel: number, count: number): void {
    const client = channel % 2;
    const toServer = channel < 2;
    const queue = (toServer ? this.up : this.down)[client] as Uint8Array[];
    for (const update of queue.splice(0, count)) {
      if (toServer) Y.applyUpdate(this.server, update, client);
      else Y.applyUpdate(this.clients[client] as Y.Doc, update, "net");
    }
  }

  /** Someone else rewrites the file: a random code-point range replaced by new characters. */
  rewriteDisk(at: number, length: number, count: number): void {
    const points = Array.from(this.disk);
    const start = Math.floor(at * (points.length + 1));
    const added = Array.from({ length: count }, () => String.fromCodePoint(this.nextDiskChar++));
    for (const ch of points.slice(start, start + length)) this.deleted.add(ch);
    for (const ch of added) this.inserted.add(ch);
    points.splice(start, length, ...added);
    this.disk = points.join("");
  }

  /** The service's write-back: compare-and-swap against the baseline, merging first when the disk moved. */
  async writeBack(): Promise<void> {
    if (this.disk !== this.merge.baselineText) await this.merge.diskChanged(this.disk);
    const write = this.merge.beginWrite();
    if (!write) return;
    this.disk = write.text;
    write.commit();
    // The watcher reports our own write: it must change nothing.
    expect(await this.merge.diskChanged(this.disk)).toBe("unchanged");
  }

  /** Every channel delivered and the document written back (which may merge the disk first). */
  async settle(): Promise<void> {
    do {
      while ([...this.up, ...this.down].some((q) => q.length > 0)) {
        for (let channel = 0; channel < 4; channel++) this.deliver(channel, Number.POSITIVE_INFINITY);
      }
      await this.writeBack();
    } while ([...this.up, ...this.down].some((q) => q.length > 0));
  }
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const action = fc.oneof(
  fc.record({
    kind: fc.constant("type" as const),
    client: fc.nat(1),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    count: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({
    kind: fc.constant("erase" as const),
    client: fc.nat(1),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    length: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({
    kind: fc.constant("deliver" as const),
    channel: fc.nat(3),
    count: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({
    kind: fc.constant("disk" as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    length: fc.nat(6),
    count: fc.nat(4),
    noticed: fc.boolean(),
  }),
  fc.constant({ kind: "touch" as const }),
  fc.constant({ kind: "write" as const }),
  fc.constant({ kind: "disk-equals-document" as const }),
);

type Action = typeof action extends fc.Arbitrary<infer T> ? T : never;

async function run(world: World, actions: Action[]): Promise<void> {
  for (const a of actions) {
    switch (a.kind) {
      case "type":
        world.type(a.client, a.at, a.count);
        break;
      case "erase":
        world.erase(a.client, a.at, a.length);
        break;
      case "deliver":
        world.deliver(a.channel, a.count);
        break;
      case "disk":
        world.rewriteDisk(a.at, a.length, a.count);
        // Unnoticed changes are found by the next write-back's compare-and-swap.
        if (a.noticed) await world.merge.diskChanged(world.disk);
        break;
      case "touch":
        // The watcher reports the file (maybe an unnoticed change), then a `touch` changes only its mtime.
        await world.merge.diskChanged(world.disk);
        expect(await world.merge.diskChanged(world.disk)).toBe("unchanged");
        break;
      case "write":
        await world.writeBack();
        break;
      case "disk-equals-document":
        // Someone writes exactly what the document holds (another editor's save of the same text).
        await world.writeBack();
        world.disk = world.text(world.server);
        expect(await world.merge.diskChanged(world.disk)).not.toBe("merged");
        break;
    }
  }
}

describe("disk merge", () => {
  it("converges with two people typing and the file rewritten under them, losing and doubling nothing", async () => {
    const initial = fc
      .array(fc.oneof(fc.integer({ min: 0x4e00, max: 0x4eff }), fc.integer({ min: 0x1f600, max: 0x1f64f })), {
        maxLength: 30,
      })
      .map((codes) => [...new Set(codes)].map((c) => String.fromCodePoint(c)).join(""));
    await fc.assert(
      fc.asyncProperty(initial, fc.array(action, { maxLength: 60 }), async (start, actions) => {
        const world = new World(start);
        await run(world, actions);
        await world.settle();
        const final = world.text(world.server);
        for (const client of world.clients) expect(world.text(client)).toBe(final);
        expect(world.disk).toBe(final);
        expect(final).not.toMatch(loneSurrogate);
        const chars = Array.from(final);
        expect(new Set(chars).size).toBe(chars.length);
        for (const ch of world.inserted) {
          expect(chars.includes(ch)).toBe(!world.deleted.has(ch));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("keeps a character someone deleted gone when the disk added text on both sides of it", async () => {
    // A small change is not taken as one run replaced whole: that would bring the deleted 😀 back.
    const live = new Y.Doc();
    const merge = new DiskMerge(live, "😀");
    live.getText(COLLAB_TEXT).delete(0, 2);
    expect(await merge.diskChanged("a😀b")).toBe("merged");
    expect(live.getText(COLLAB_TEXT).toString()).toBe("ab");
  });

  it("keeps typing that reached the service but not the disk when the disk changes elsewhere", async () => {
    const live = new Y.Doc();
    const merge = new DiskMerge(live, "one\ntwo\nthree\n");
    live.getText(COLLAB_TEXT).insert(3, " typed");
    expect(await merge.diskChanged("one\ntwo\nthree changed\n")).toBe("merged");
    expect(live.getText(COLLAB_TEXT).toString()).toBe("one typed\ntwo\nthree changed\n");
  });

  it("continues an unloaded document from its rest: an old copy's offline typing and the disk's change since both land, once", async () => {
    // First load: a browser syncs, then goes offline; the document unloads (its rest is kept).
    const first = new Y.Doc();
    const firstMerge = new DiskMerge(first, "one\ntwo\nthree\n");
    const browser = new Y.Doc();
    Y.applyUpdate(browser, Y.encodeStateAsUpdate(first));
    const rest = firstMerge.rest();
    firstMerge.destroy();
    browser.getText(COLLAB_TEXT).insert(3, " typed offline");
    // Meanwhile the disk changed; the next load continues the rest and merges the disk.
    const second = new Y.Doc();
    const merge = new DiskMerge(second, rest);
    expect(await merge.diskChanged("one\ntwo\nthree, on disk\n")).toBe("merged");
    expect(second.getText(COLLAB_TEXT).toString()).toBe("one\ntwo\nthree, on disk\n");
    // The browser reconnects: the usual Yjs sync, both ways.
    Y.applyUpdate(second, Y.encodeStateAsUpdate(browser, Y.encodeStateVector(second)));
    Y.applyUpdate(browser, Y.encodeStateAsUpdate(second, Y.encodeStateVector(browser)));
    const expected = "one typed offline\ntwo\nthree, on disk\n";
    expect(second.getText(COLLAB_TEXT).toString()).toBe(expected);
    expect(browser.getText(COLLAB_TEXT).toString()).toBe(expected);
    expect(merge.beginWrite()?.text).toBe(expected);
  });

  it("only moves the baseline when the disk already holds the document's text", async () => {
    const live = new Y.Doc();
    const merge = new DiskMerge(live, "a\n");
    live.getText(COLLAB_TEXT).insert(2, "b\n");
    expect(await merge.diskChanged("a\nb\n")).toBe("caught-up");
    expect(live.getText(COLLAB_TEXT).toString()).toBe("a\nb\n");
    expect(merge.beginWrite()).toBeNull();
  });
});
