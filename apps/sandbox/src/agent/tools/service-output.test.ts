import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type AgentFixture, startAgentFixture } from "../testing/agent-fixture";

let f: AgentFixture;
afterEach(async () => {
  await f?.close();
});

const LONG_SUMMARY = Array.from({ length: 3000 }, (_, i) => `finding ${i + 1}`).join("\n");

describe("output of the service's own tools cut for the model", () => {
  it("is kept in the workspace's spill folder, and the model reads the rest from there", async () => {
    f = await startAgentFixture({
      script: [
        { toolCalls: [{ name: "task", args: { agent: "explore", objective: "list every finding" } }] },
        { text: LONG_SUMMARY }, // the sub-agent's answer: far over the 2000 lines the model may see
        { text: "That is a long list." },
      ],
    });
    const session = await f.newSession();
    expect((await f.run(session.id, "investigate")).status).toBe("done");
    const told = f.model.toolResults(2).join("");
    expect(told).toContain("finding 1\n");
    expect(told).not.toContain("finding 3000");
    const spilled = told.match(/saved to (\S+\.txt)\./)?.[1] ?? "";
    // Where the daemon keeps its own tools' cut outputs (a container path in production).
    expect(spilled.startsWith(`${f.workspace.spillDir}/`)).toBe(true);
    expect(readFileSync(spilled, "utf8")).toBe(LONG_SUMMARY);

    f.model.push(
      { toolCalls: [{ name: "read", args: { path: spilled, offset: 2999, limit: 2 } }] },
      { text: "Read the end." },
    );
    expect((await f.run(session.id, "show me the last findings")).status).toBe("done");
    expect(f.model.toolResults(f.model.requests.length - 1).join("")).toContain("finding 3000");
  });
});
