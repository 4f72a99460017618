import { afterEach, describe, expect, it, vi } from "vitest";
import { CommandError, capture, findCommand, run } from "./run.mjs";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("run", () => {
  it("prints each output line behind the prefix", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await run(process.execPath, ["-e", 'console.log("one\\ntwo"); console.error("three")'], {
      prefix: "job",
    });
    expect(log.mock.calls.map(([line]) => line).sort()).toEqual([
      "  job │ one",
      "  job │ three",
      "  job │ two",
    ]);
  });

  it("fails with the exit code of a command that fails", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const failure = run(process.execPath, ["-e", "process.exit(4)"]);
    await expect(failure).rejects.toBeInstanceOf(CommandError);
    await expect(failure).rejects.toMatchObject({
      exitCode: 4,
      message: expect.stringContaining("exit code 4"),
    });
  });

  it("fails with 127 when the command does not exist", async () => {
    await expect(run("/nonexistent/tool", [])).rejects.toMatchObject({
      exitCode: 127,
      message: "/nonexistent/tool: command not found",
    });
  });
});

describe("capture", () => {
  it("returns the output and exit code without throwing", async () => {
    const result = await capture(process.execPath, ["-e", 'process.stdout.write("out"); process.exit(2)']);
    expect(result).toMatchObject({ code: 2, stdout: "out" });
  });

  it("returns 127 for a missing command", async () => {
    expect((await capture("/nonexistent/tool", [])).code).toBe(127);
  });
});

describe("findCommand", () => {
  it("finds an executable on PATH and returns null for an unknown one", async () => {
    expect(await findCommand("sh")).toMatch(/\/sh$/);
    expect(await findCommand("no-such-command-coder")).toBeNull();
  });
});
