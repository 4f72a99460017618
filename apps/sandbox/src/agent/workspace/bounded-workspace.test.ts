import { DaemonErrorCode } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { DaemonCallError } from "../../daemon/daemon-connection";
import { jsonSize } from "./bounded-json";
import { boundedWorkspace, DAEMON_ANSWER_LIMITS as L } from "./bounded-workspace";
import type { DaemonToolCall, WorkspacePort } from "./workspace-port";

const MB = 1024 * 1024;
const call: DaemonToolCall = {
  tool: "bash",
  args: { command: "true" },
  sessionId: "ses_1",
  callId: "prt_1",
  agent: "build",
  messageId: "msg_1",
};
const never = () => Promise.reject(new Error("not used"));

/** A daemon that answers whatever the test says, as a compromised container could. */
function hostile(answers: Partial<Record<keyof WorkspacePort, unknown>>, progress: unknown[] = []) {
  const lines: string[] = [];
  const port = {
    listTools: async () => answers.listTools,
    executeTool: async (_call, onProgress) => {
      for (const update of progress) onProgress(update as Record<string, unknown>);
      if (answers.executeTool instanceof Error) throw answers.executeTool;
      return answers.executeTool;
    },
    saveOutput: async () => answers.saveOutput,
    readText: async () => answers.readText,
    snapshots: { take: never, diff: never, restore: never },
  } as WorkspacePort;
  return { port: boundedWorkspace(port, (line) => lines.push(line)), lines };
}

const run = (port: WorkspacePort, onProgress: (u: Record<string, unknown>) => void = () => {}) =>
  port.executeTool(call, onProgress, new AbortController().signal);

const tool = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  description: `the ${id} tool`,
  parameters: { type: "object", properties: {} },
  ...extra,
});

describe("a tool call's answer from the daemon", () => {
  it("reaches the model cut to 64 KB with a marker when the daemon sends 100 MB of output", async () => {
    const { port, lines } = hostile({ executeTool: { result: { ok: true }, output: "a".repeat(100 * MB) } });
    const { output } = await run(port);
    expect(output.length).toBeLessThan(L.outputChars + 200);
    expect(output).toMatch(/\[cut by the service: \d+ more characters\]$/);
    expect(lines).toEqual([]);
  });

  it("is stored shortened, keeping ok and the error, when its result carries 100 MB of fields", async () => {
    const result = {
      ok: false,
      error: { code: "timeout", message: "m".repeat(10 * MB) },
      stdout: "s".repeat(100 * MB),
      items: Array.from({ length: 100_000 }, (_, i) => ({ name: `f${i}`, size: i })),
    };
    const { port, lines } = hostile({ executeTool: { result, output: "short" } });
    const answer = await run(port);
    expect(jsonSize(answer.result)).toBeLessThan(L.resultChars + 1024);
    expect(answer.result).toMatchObject({ ok: false, error: { code: "timeout" } });
    expect(String(answer.result.stdout)).toMatch(/cut by the service/);
    expect(answer.result.cut_by_service).toMatch(/long fields were shortened/);
    expect(lines.join("\n")).toMatch(/bash answered a \d+-character result; shortened/);
  });

  it("cuts the message of an error the daemon answers with", async () => {
    const { port } = hostile({ executeTool: new DaemonCallError(DaemonErrorCode.Io, "e".repeat(10 * MB)) });
    const error = await run(port).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DaemonCallError);
    expect((error as Error).message.length).toBeLessThan(L.errorChars + 200);
  });
});

describe("live output of a running call from the daemon", () => {
  it("is bounded per update, skips repeats, and stops at the call's total", async () => {
    const flood = [
      { stdout: "x".repeat(10 * MB) },
      ...Array.from({ length: 100 }, () => ({ stdout: "same" })),
      ...Array.from({ length: 1000 }, (_, i) => ({ stdout: `${i}`.padEnd(100 * 1024, ".") })),
    ];
    const { port, lines } = hostile({ executeTool: { result: { ok: true }, output: "done" } }, flood);
    const seen: Record<string, unknown>[] = [];
    await run(port, (update) => seen.push(update));
    const sizes = seen.map(jsonSize);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(L.progressChars);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(L.progressTotalChars);
    expect(seen.filter((u) => u.stdout === "same")).toHaveLength(1);
    expect(lines.filter((l) => l.includes("more live output"))).toHaveLength(1);
  });
});

describe("the tool list from the daemon", () => {
  it("offers at most 64 tools when the daemon lists 100 000", async () => {
    const { port } = hostile({ listTools: Array.from({ length: 100_000 }, (_, i) => tool(`t${i}`)) });
    const tools = await port.listTools({ agent: "build", model: "m" });
    expect(tools).toHaveLength(L.tools);
  });

  it("cuts a 10 MB description, and drops tools with a bad name, an oversized schema or a repeated id", async () => {
    const { port, lines } = hostile({
      listTools: [
        tool("read", { description: "d".repeat(10 * MB) }),
        tool("bad name!"),
        tool("huge", { parameters: { type: "object", description: "p".repeat(L.schemaChars) } }),
        tool("read"),
        { id: "nodesc" },
        null,
        tool("bash"),
      ],
    });
    const tools = await port.listTools({ agent: "build", model: "m" });
    expect(tools.map((t) => t.id)).toEqual(["read", "bash"]);
    expect(tools[0]?.description.length).toBeLessThan(L.descriptionChars + 200);
    expect(lines).toEqual(["workspace daemon: dropped 5 unusable or excess tool(s) from its list"]);
  });

  it("keeps the whole list within its budget", async () => {
    const big = (i: number) => tool(`t${i}`, { description: "d".repeat(L.descriptionChars) });
    const { port } = hostile({ listTools: Array.from({ length: 64 }, (_, i) => big(i)) });
    const tools = await port.listTools({ agent: "build", model: "m" });
    expect(jsonSize(tools)).toBeLessThan(L.listChars + 64 * 200);
    expect(tools.length).toBeLessThan(64);
  });

  it("fails with a plain message when the daemon answers something that is not a list", async () => {
    const { port } = hostile({ listTools: { tools: "all of them" } });
    await expect(port.listTools({ agent: "build", model: "m" })).rejects.toThrow(
      "the workspace answered the tool list with something that is not one",
    );
  });
});

describe("other answers from the daemon", () => {
  it("cuts a file's text to the size asked for", async () => {
    const { port } = hostile({ readText: "r".repeat(MB) });
    expect(await port.readText("AGENTS.md", 100)).toHaveLength(100);
  });
});
