import type { FileChange } from "@coder/protocol";
import { MAX_CHANGES_PER_NOTIFICATION } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChangeBatcher, FLUSH_DELAY_MS } from "./batcher";

let sent: FileChange[][];
let batcher: ChangeBatcher;

beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
  batcher = new ChangeBatcher((changes) => sent.push(changes));
});
afterEach(() => {
  batcher.dispose();
  vi.useRealTimers();
});

describe("ChangeBatcher", () => {
  it("sends a burst of changes as one notification once the delay has passed", () => {
    batcher.push({ type: "add", path: "a.txt" });
    batcher.push({ type: "addDir", path: "src" });
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(FLUSH_DELAY_MS);
    expect(sent).toEqual([
      [
        { type: "add", path: "a.txt" },
        { type: "addDir", path: "src" },
      ],
    ]);
  });

  it("starts a new batch for changes after a flush", () => {
    batcher.push({ type: "change", path: "a.txt" });
    vi.advanceTimersByTime(FLUSH_DELAY_MS);
    batcher.push({ type: "change", path: "b.txt" });
    vi.advanceTimersByTime(FLUSH_DELAY_MS);
    expect(sent).toEqual([[{ type: "change", path: "a.txt" }], [{ type: "change", path: "b.txt" }]]);
  });

  it("keeps one entry per path, folding repeated events", () => {
    batcher.push({ type: "add", path: "new.txt" });
    batcher.push({ type: "change", path: "new.txt" });
    batcher.push({ type: "change", path: "old.txt" });
    batcher.push({ type: "change", path: "old.txt" });
    batcher.push({ type: "unlink", path: "saved.txt" });
    batcher.push({ type: "add", path: "saved.txt" });
    batcher.flush();
    expect(sent).toEqual([
      [
        { type: "add", path: "new.txt" },
        { type: "change", path: "old.txt" },
        { type: "change", path: "saved.txt" },
      ],
    ]);
  });

  it("drops a file or folder created and deleted within one batch", () => {
    batcher.push({ type: "add", path: "tmp.txt" });
    batcher.push({ type: "unlink", path: "tmp.txt" });
    batcher.push({ type: "addDir", path: "tmp" });
    batcher.push({ type: "unlinkDir", path: "tmp" });
    batcher.flush();
    expect(sent).toEqual([]);
  });

  it("splits a flood into notifications of bounded size", () => {
    const total = MAX_CHANGES_PER_NOTIFICATION * 2 + 7;
    for (let i = 0; i < total; i++) batcher.push({ type: "add", path: `f${i}` });
    vi.advanceTimersByTime(FLUSH_DELAY_MS);
    expect(sent.map((batch) => batch.length)).toEqual([
      MAX_CHANGES_PER_NOTIFICATION,
      MAX_CHANGES_PER_NOTIFICATION,
      7,
    ]);
    expect(sent.flat()[total - 1]).toEqual({ type: "add", path: `f${total - 1}` });
  });

  it("sends nothing after it is disposed", () => {
    batcher.push({ type: "add", path: "a.txt" });
    batcher.dispose();
    batcher.push({ type: "add", path: "b.txt" });
    vi.advanceTimersByTime(FLUSH_DELAY_MS * 2);
    expect(sent).toEqual([]);
  });
});
