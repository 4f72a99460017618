import { describe, expect, it } from "vitest";
import { type DocumentRest, MAX_REST_MS, MAX_RESTING_BYTES, RestingDocuments } from "./resting-documents";

const rest = (epoch: string, bytes = 10): DocumentRest => ({
  epoch,
  merge: { live: new Uint8Array(bytes), base: new Uint8Array(0) },
});

describe("documents resting after they unloaded", () => {
  it("gives a document's rest back once, to its own workspace only", () => {
    const store = new RestingDocuments();
    store.of("ws1").keep("a.txt", rest("e1"));
    expect(store.of("ws2").take("a.txt")).toBeUndefined();
    expect(store.of("ws1").epochOf("a.txt")).toBe("e1");
    expect(store.of("ws1").take("a.txt")?.epoch).toBe("e1");
    expect(store.of("ws1").take("a.txt")).toBeUndefined();
  });

  it("lets the oldest go when they would hold more than the bound", () => {
    const store = new RestingDocuments();
    const half = MAX_RESTING_BYTES / 2;
    store.of("ws").keep("old.txt", rest("old", half));
    store.of("ws").keep("mid.txt", rest("mid", half));
    store.of("ws").keep("new.txt", rest("new", 1));
    expect(store.of("ws").epochOf("old.txt")).toBeUndefined();
    expect(store.of("ws").epochOf("mid.txt")).toBe("mid");
    expect(store.of("ws").epochOf("new.txt")).toBe("new");
    store.of("ws").keep("huge.txt", rest("huge", MAX_RESTING_BYTES + 1));
    expect(store.of("ws").epochOf("huge.txt")).toBeUndefined();
  });

  it("forgets a rest older than an hour, and all of a workspace that stopped", () => {
    let now = 0;
    const store = new RestingDocuments(() => now);
    store.of("ws1").keep("a.txt", rest("a"));
    store.of("ws1").keep("b.txt", rest("b"));
    store.of("ws2").keep("c.txt", rest("c"));
    now = MAX_REST_MS + 1;
    expect(store.of("ws1").take("a.txt")).toBeUndefined();
    store.forget("ws1");
    expect(store.size).toBe(1);
    store.of("ws2").keep("d.txt", rest("d"));
    // Keeping one sweeps the expired ones.
    expect(store.size).toBe(1);
  });
});
