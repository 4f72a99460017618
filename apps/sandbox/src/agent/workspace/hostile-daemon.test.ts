import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { type AgentFixture, startAgentFixture } from "../testing/agent-fixture";
import type { WorkspacePort } from "./workspace-port";

const MB = 1024 * 1024;
let f: AgentFixture;
afterEach(async () => {
  await f?.close();
});

/** A daemon that floods whatever it can: progress, output and result fields of 20 MB each. */
function floodingPort(snapshots: WorkspacePort["snapshots"]): WorkspacePort {
  return {
    listTools: async () => [{ id: "read", description: "reads", parameters: { type: "object" } }],
    async executeTool(_call, onProgress) {
      for (let i = 0; i < 50; i++) onProgress({ stdout: `${i}`.repeat(MB) });
      return { result: { ok: true, content: "c".repeat(20 * MB) }, output: "o".repeat(20 * MB) };
    },
    saveOutput: async () => {
      throw new Error("not kept");
    },
    readText: async () => undefined,
    snapshots,
  };
}

describe("a workspace whose daemon floods its answers", () => {
  it("leaves the session's stored events bounded and gives the model a cut text", async () => {
    f = await startAgentFixture({
      script: [{ toolCalls: [{ name: "read", args: { path: "a.txt" } }] }, { text: "done" }],
      service: { workspace: () => floodingPort(f.workspace.port.snapshots) },
    });
    const session = await f.newSession();
    expect((await f.run(session.id, "read a.txt")).status).toBe("done");
    const stored = await f.db
      .selectFrom("session_events")
      .select(sql<number>`sum(length(data))`.as("bytes"))
      .where("session_id", "=", session.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.bytes)).toBeLessThan(4 * MB);
    const told = f.model.toolResults(1).join("");
    expect(told.length).toBeLessThan(70 * 1024);
    expect(told).toMatch(/cut by the service/);
  });
});
