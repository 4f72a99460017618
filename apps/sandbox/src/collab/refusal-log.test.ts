import { describe, expect, it } from "vitest";
import { RefusalLog } from "./refusal-log";

describe("the refusal log", () => {
  it("logs a person's first refusal, then one line per interval saying how many were left out", () => {
    const lines: string[] = [];
    let now = 0;
    const log = new RefusalLog(
      (line) => lines.push(line),
      10_000,
      () => now,
    );
    for (let i = 0; i < 1000; i++) log.refused("vera", "collab: closing a socket that sent a text frame");
    expect(lines).toEqual(["collab: closing a socket that sent a text frame"]);
    now = 10_000;
    log.refused("vera", "collab: closing a socket that sent a text frame");
    expect(lines[1]).toBe(
      "collab: closing a socket that sent a text frame (and 999 more refusals since the last line)",
    );
    log.refused("vera", "again");
    expect(lines).toHaveLength(2);
  });

  it("keeps each person's allowance apart", () => {
    const lines: string[] = [];
    const log = new RefusalLog(
      (line) => lines.push(line),
      10_000,
      () => 0,
    );
    for (let i = 0; i < 10; i++) log.refused("vera", "from vera");
    log.refused("olga", "from olga");
    expect(lines).toEqual(["from vera", "from olga"]);
  });
});
