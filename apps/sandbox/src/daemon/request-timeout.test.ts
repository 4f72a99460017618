import { describe, expect, it } from "vitest";
import { DEFAULT_DAEMON_TIMEOUTS, requestTimeoutMs } from "./request-timeout";

const call = (tool: string, args: Record<string, unknown>) => ({ tool, args, sessionId: "s", callId: "c" });

describe("how long the service waits for the daemon", () => {
  it("gives a file call a minute, and tool calls and snapshots two", () => {
    expect(requestTimeoutMs("fs.read", { path: "a", maxBytes: 1 }, DEFAULT_DAEMON_TIMEOUTS)).toBe(60_000);
    expect(requestTimeoutMs("snapshot.take", {}, DEFAULT_DAEMON_TIMEOUTS)).toBe(120_000);
    expect(requestTimeoutMs("tools.execute", call("grep", { pattern: "x" }), DEFAULT_DAEMON_TIMEOUTS)).toBe(
      120_000,
    );
  });

  it("lets bash run for its own timeout plus a minute, never past its ten-minute cap", () => {
    const bash = (args: Record<string, unknown>) =>
      requestTimeoutMs("tools.execute", call("bash", { command: "make", ...args }), DEFAULT_DAEMON_TIMEOUTS);
    expect(bash({})).toBe(120_000 + 60_000);
    expect(bash({ timeout_ms: 300_000 })).toBe(300_000 + 60_000);
    expect(bash({ timeout_ms: 86_400_000 })).toBe(600_000 + 60_000);
    expect(bash({ timeout_ms: "soon" })).toBe(120_000 + 60_000);
    expect(bash({ timeout_ms: -1 })).toBe(120_000 + 60_000);
  });
});
