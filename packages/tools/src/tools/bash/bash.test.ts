import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../../testing/workspace";
import { TRUNCATED_MARK } from "./capture";

let ws: TestWorkspace;
const leftovers: number[] = [];
beforeEach(() => {
  ws = createTestWorkspace();
});
afterEach(() => {
  for (const pid of leftovers.splice(0)) killQuietly(pid);
  ws.cleanup();
});

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("bash", () => {
  it("runs a command in the workspace root and returns its output and exit code", async () => {
    const { result, output } = await ws.call("bash", { command: "pwd; echo oops >&2" });
    expect(result).toMatchObject({
      ok: true,
      exit_code: 0,
      stdout: `${ws.root}\n`,
      stderr: "oops\n",
      truncated: false,
    });
    expect(result.command).toBe("pwd; echo oops >&2");
    expect(typeof result.duration_ms).toBe("number");
    expect(output).toBe(`exit code 0\n${ws.root}\nstderr:\noops`);
  });

  it("is not ok when the command fails, and reports its exit code", async () => {
    const { result, output } = await ws.call("bash", { command: "exit 3" });
    expect(result).toMatchObject({ ok: false, exit_code: 3 });
    expect(result.error).toBeUndefined();
    expect(output).toBe("exit code 3\n(no output)");
  });

  it("reports 128 + signal for a command killed by a signal", async () => {
    expect((await ws.call("bash", { command: "kill -9 $$" })).result.exit_code).toBe(137);
  });

  it("sets a non-interactive environment and closes stdin", async () => {
    const { result } = await ws.call("bash", {
      command: 'echo "$CI $GIT_TERMINAL_PROMPT $PAGER $EDITOR $DEBIAN_FRONTEND"; cat; echo end',
    });
    expect(result.stdout).toBe("1 0 cat true noninteractive\nend\n");
  });

  it("stops a command that runs past its timeout with exit code 124", async () => {
    const { result, output } = await ws.call("bash", { command: "sleep 30", timeout_ms: 300 });
    expect(result).toMatchObject({ ok: false, exit_code: 124, error: { code: "timeout" } });
    expect(output).toContain("exit code 124");
    expect(output).toContain("Error (timeout)");
  });

  it("kills the whole process group when stopped, background children included", async () => {
    const controller = new AbortController();
    let pid = 0;
    const { result } = await ws.call(
      "bash",
      { command: "sleep 30 & echo $!; sleep 30" },
      {
        abort: controller.signal,
        metadata: (update) => {
          pid = Number(String(update.stdout).trim());
          if (pid > 0) controller.abort();
        },
      },
    );
    leftovers.push(pid);
    expect(result.exit_code).toBe(124);
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 5000 });
  });

  it("stops the command when the call is aborted, streaming output while it runs", async () => {
    const controller = new AbortController();
    const updates: Record<string, unknown>[] = [];
    const { result } = await ws.call(
      "bash",
      { command: "echo started; sleep 30" },
      {
        abort: controller.signal,
        metadata: (update) => {
          updates.push(update);
          if (String(update.stdout).includes("started")) controller.abort();
        },
      },
    );
    expect(updates[0]).toEqual({ stdout: "started\n", stderr: "" });
    expect(result).toMatchObject({
      ok: false,
      exit_code: 124,
      stdout: "started\n",
      error: { code: "aborted" },
    });
  });

  it("returns when the shell exits even if a background child keeps the pipes open", async () => {
    const { result } = await ws.call("bash", { command: "sleep 30 & echo $!" });
    const pid = Number(String(result.stdout).trim());
    leftovers.push(pid);
    expect(result).toMatchObject({ ok: true, exit_code: 0 });
    expect(isAlive(pid)).toBe(true);
  });

  it("caps a flood of output at the limit and marks it truncated", async () => {
    const { result } = await ws.call("bash", { command: "yes | head -c 10000000; echo done >&2" });
    expect(result).toMatchObject({ ok: true, truncated: true, stderr: "done\n" });
    const stdout = String(result.stdout);
    expect(stdout.endsWith(TRUNCATED_MARK)).toBe(true);
    expect(stdout.length).toBe(30_000 + TRUNCATED_MARK.length);
  });

  it("uses the configured output limit", async () => {
    const small = createTestWorkspace({}, { bash: { output_limit_bytes: 100 } });
    try {
      const { result } = await small.call("bash", { command: "head -c 1000 /dev/zero | tr '\\0' x" });
      expect(result.stdout).toBe(`${"x".repeat(100)}${TRUNCATED_MARK}`);
    } finally {
      small.cleanup();
    }
  });

  it("refuses an empty command", async () => {
    const { result } = await ws.call("bash", { command: "   " });
    expect(result.error).toMatchObject({
      code: "invalid_args",
      message: expect.stringContaining("command: must not be empty"),
    });
  });

  it("refuses a timeout that is not a positive whole number", async () => {
    expect((await ws.call("bash", { command: "true", timeout_ms: -5 })).result.error?.code).toBe(
      "invalid_args",
    );
  });
});
