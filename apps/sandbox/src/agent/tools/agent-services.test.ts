import { writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AgentFixture, isType, startAgentFixture } from "../testing/agent-fixture";

let f: AgentFixture;
let server: http.Server | undefined;
afterEach(async () => {
  await f?.close();
  server?.close();
  server = undefined;
});

const experimental = { batch_tool: true, websearch: true };

describe("batch", () => {
  it("runs several calls at once, each shown under the batch, and returns all their results", async () => {
    f = await startAgentFixture({
      config: { experimental },
      script: [
        {
          toolCalls: [
            {
              name: "batch",
              args: {
                tool_calls: [
                  { tool: "read", parameters: { path: "a.txt" } },
                  { tool: "read", parameters: { path: "b.txt" } },
                  { tool: "read", parameters: { path: "missing.txt" } },
                ],
              },
            },
          ],
        },
        { text: "ok" },
      ],
    });
    writeFileSync(path.join(f.workspace.root, "a.txt"), "alpha\n");
    writeFileSync(path.join(f.workspace.root, "b.txt"), "beta\n");
    const session = await f.newSession();
    expect((await f.run(session.id, "read both")).status).toBe("done");
    const [batch, ...inner] = await f.toolParts(session.id);
    expect(batch?.tool).toBe("batch");
    expect(inner.map((p) => [p.tool, p.state, p.parentCallId])).toEqual([
      ["read", "completed", batch?.callId],
      ["read", "completed", batch?.callId],
      ["read", "error", batch?.callId],
    ]);
    const results = batch?.result?.results as { tool: string; ok: boolean; output: string }[];
    expect(results.map((r) => r.ok)).toEqual([true, true, false]);
    expect(results[1]?.output).toContain("beta");
    const toolMessages = f.model.requests[1]?.body.messages.filter((m) => m.role === "tool") ?? [];
    expect(toolMessages).toHaveLength(1);
  });
});

describe("websearch", () => {
  it("asks, then searches with the configured API", async () => {
    let seen: { url?: string; key?: string } = {};
    server = http.createServer((req, res) => {
      seen = { url: req.url, key: String(req.headers["x-subscription-token"]) };
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          web: {
            results: [
              { title: "Zod 4", url: "https://zod.dev/v4", description: "What's <strong>new</strong>" },
            ],
          },
        }),
      );
    });
    await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/search`;
    f = await startAgentFixture({
      config: { experimental, websearch: { endpoint, apiKey: "search-key" } },
      script: [
        { toolCalls: [{ name: "websearch", args: { query: "zod 4 release", num_results: 3 } }] },
        { text: "ok" },
      ],
    });
    const session = await f.newSession();
    const view = f.watch(session.id);
    const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "search" });
    const asked = await view.waitFor(isType("approval.asked"));
    expect(asked.request).toMatchObject({ permission: "websearch", patterns: ["zod 4 release"] });
    await f.agent.respond({ sessionId: session.id, requestId: asked.request.id, reply: "once" });
    await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
    expect(seen).toEqual({ url: "/search?q=zod+4+release&count=3", key: "search-key" });
    const [part] = await f.toolParts(session.id);
    expect(part?.result).toMatchObject({
      ok: true,
      results: [{ title: "Zod 4", url: "https://zod.dev/v4", snippet: "What's new" }],
    });
  });
});
