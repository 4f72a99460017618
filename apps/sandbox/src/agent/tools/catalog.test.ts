import { createDefaultRegistry } from "@coder/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentConfig } from "../config/agent-config";
import { type LocalWorkspace, startLocalWorkspace } from "../testing/local-workspace";
import { offeredTools } from "./catalog";
import { createLocalRegistry } from "./local-registry";

const config: AgentConfig = {
  providers: {},
  models: [],
  permissions: {},
  experimental: { batch_tool: false, websearch: false },
  webfetch: true,
  websearch: { endpoint: "" },
};

let ws: LocalWorkspace;
beforeAll(async () => {
  ws = await startLocalWorkspace();
});
afterAll(async () => {
  await ws.close();
});

const ids = async (
  agent: "build" | "plan" | "general" | "explore",
  c: AgentConfig = config,
  model = "scripted",
) => (await offeredTools(ws.port, createLocalRegistry(c), c, agent, model)).map((t) => t.id);

describe("the tools an agent is offered", () => {
  it("come from the workspace's list for the agent", async () => {
    const build = await ids("build");
    expect(build).toEqual(
      expect.arrayContaining(["read", "edit", "write", "bash", "todowrite", "task", "question", "webfetch"]),
    );
    expect(build).not.toContain("plan_exit");
    expect(build).not.toContain("apply_patch");
    expect(await ids("build", config, "gpt-5")).toContain("apply_patch");
  });

  it("let the plan agent write plans and leave plan mode, but not run commands", async () => {
    const plan = await ids("plan");
    expect(plan).toEqual(expect.arrayContaining(["read", "write", "edit", "plan_exit", "question"]));
    expect(plan).not.toContain("bash");
  });

  it("keep sub-agents from asking, planning todos or starting more sub-agents", async () => {
    for (const agent of ["general", "explore"] as const) {
      const list = await ids(agent);
      for (const tool of ["task", "question", "todowrite", "todoread", "plan_exit"])
        expect(list).not.toContain(tool);
    }
    expect(await ids("general")).toContain("bash");
    expect(await ids("explore")).not.toContain("bash");
  });

  it("follow the deployment's switches", async () => {
    expect(await ids("build", { ...config, webfetch: false })).not.toContain("webfetch");
    const experimental = { ...config, experimental: { batch_tool: true, websearch: true } };
    expect(await ids("build", experimental)).toContain("batch");
    expect(await ids("build", experimental)).not.toContain("websearch");
    expect(await ids("build", { ...experimental, websearch: { endpoint: "", apiKey: "k" } })).toContain(
      "websearch",
    );
    // The workspace's list never has them: the container does not know the service's flags.
    expect(
      createDefaultRegistry()
        .definitions({ agent: "build" })
        .map((d) => d.id),
    ).not.toContain("batch");
  });
});
