import { describe, expect, it } from "vitest";
import { DiagnosticsStore } from "./diagnostics-store";

const diagnostic = (message: string) => ({
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  message,
});

describe("DiagnosticsStore", () => {
  it("answers at once with a report that arrived after the last sync", async () => {
    const store = new DiagnosticsStore();
    store.expect("file:///a", 1);
    store.publish("file:///a", [diagnostic("x")], 1);
    expect(await store.wait("file:///a", 60_000)).toEqual({ diagnostics: [diagnostic("x")], fresh: true });
  });

  it("waits for the report on the text just sent", async () => {
    const store = new DiagnosticsStore();
    store.expect("file:///a", 2);
    const waiting = store.wait("file:///a", 60_000);
    store.publish("file:///a", [diagnostic("new")], 2);
    expect(await waiting).toEqual({ diagnostics: [diagnostic("new")], fresh: true });
  });

  it("ignores a report about an older version of the document", async () => {
    const store = new DiagnosticsStore();
    store.expect("file:///a", 1);
    store.publish("file:///a", [diagnostic("old")], 1);
    store.expect("file:///a", 2);
    store.publish("file:///a", [diagnostic("late")], 1);
    expect(await store.wait("file:///a", 10)).toEqual({ diagnostics: [diagnostic("old")], fresh: false });
  });

  it("gives up waiting when aborted", async () => {
    const store = new DiagnosticsStore();
    store.expect("file:///a", 1);
    const abort = new AbortController();
    const waiting = store.wait("file:///a", 60_000, abort.signal);
    abort.abort();
    expect(await waiting).toEqual({ diagnostics: [], fresh: false });
  });
});
