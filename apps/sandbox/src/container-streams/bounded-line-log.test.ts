import { describe, expect, it, vi } from "vitest";
import { BoundedLineLog, type LineLogLimits } from "./bounded-line-log";

const limits: LineLogLimits = { maxLineBytes: 2048, burst: 50, perSecond: 10, total: 2000 };

function collect(l: LineLogLimits = limits) {
  const lines: string[] = [];
  let clock = 0;
  const log = new BoundedLineLog(
    (line) => lines.push(line),
    l,
    () => clock,
  );
  const advance = (ms: number) => {
    clock += ms;
  };
  return { log, lines, advance };
}

describe("a container's stderr in the service log", () => {
  it("logs each line, skips blank ones and logs a last line without newline at the end", () => {
    const { log, lines } = collect();
    log.write(Buffer.from("first\n\n  \r\nsec"));
    log.write(Buffer.from("ond\r\nthird"));
    expect(lines).toEqual(["first", "second"]);
    log.end();
    expect(lines).toEqual(["first", "second", "third"]);
  });

  it("cuts a 100 MB line without newline to 2 KB and says how much was cut", () => {
    const { log, lines } = collect();
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    const chunks = Math.ceil((100 * 1024 * 1024) / chunk.length);
    for (let i = 0; i < chunks; i++) log.write(chunk);
    log.write(Buffer.from("\nafter\n"));
    expect(lines).toEqual([
      `${"x".repeat(2048)} … [${chunks * chunk.length - 2048} more bytes cut]`,
      "after",
    ]);
  });

  it("logs a burst, then a few lines a second with how many were dropped", () => {
    const { log, lines, advance } = collect();
    log.write(Buffer.from("line\n".repeat(1_000_000)));
    expect(lines).toHaveLength(50);
    advance(1000);
    log.write(Buffer.from("line\n".repeat(100)));
    expect(lines.slice(50, 52)).toEqual(["… (999950 lines dropped)", "line"]);
    expect(lines).toHaveLength(50 + 1 + 10);
    log.end();
    expect(lines.at(-1)).toBe("… (90 lines dropped)");
  });

  it("says how many lines were dropped a second later when the stream goes quiet", async () => {
    const { log, lines } = collect({ ...limits, burst: 1 });
    log.write(Buffer.from("line\n".repeat(5)));
    expect(lines).toEqual(["line"]);
    await vi.waitFor(() => expect(lines).toEqual(["line", "… (4 lines dropped)"]), { timeout: 5000 });
    log.end();
  });

  it("goes silent after the total, saying so once", () => {
    const { log, lines, advance } = collect({ ...limits, total: 100 });
    for (let second = 0; second < 1000; second++) {
      log.write(Buffer.from("line\n".repeat(100)));
      advance(1000);
    }
    log.end();
    expect(lines).toHaveLength(101);
    expect(lines.filter((l) => l === "line").length).toBeGreaterThan(50);
    expect(lines.at(-1)).toBe("… (further output not logged)");
  });
});
