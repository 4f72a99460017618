import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PROGRESS_INTERVAL_MS, throttleProgress } from "./progress";

let sent: Record<string, unknown>[];

beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
});
afterEach(() => vi.useRealTimers());

describe("throttleProgress", () => {
  it("sends the first update at once and the latest state of a burst after the interval", () => {
    const progress = throttleProgress((u) => sent.push(u));
    progress.push({ output: "a" });
    progress.push({ output: "ab" });
    progress.push({ output: "abc", lines: 1 });
    expect(sent).toEqual([{ output: "a" }]);
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(sent).toEqual([{ output: "a" }, { output: "abc", lines: 1 }]);
  });

  it("merges fields of updates sent within one interval", () => {
    const progress = throttleProgress((u) => sent.push(u));
    progress.push({ phase: "start" });
    progress.push({ output: "x" });
    progress.push({ phase: "running" });
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(sent[1]).toEqual({ output: "x", phase: "running" });
  });

  it("sends an update at once again after a quiet interval", () => {
    const progress = throttleProgress((u) => sent.push(u));
    progress.push({ n: 1 });
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS * 3);
    progress.push({ n: 2 });
    expect(sent).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("flushes the pending update on close and ignores later ones", () => {
    const progress = throttleProgress((u) => sent.push(u));
    progress.push({ n: 1 });
    progress.push({ n: 2 });
    progress.close();
    progress.push({ n: 3 });
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS * 3);
    expect(sent).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
