import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ToolPart } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostBridgeAddress, jobContainers } from "../../docker/testing/engine-probes";
import type { AttachedProcess } from "../../driver/workspace-driver";
import { instanceDriver } from "../../testing/harness";
import { until } from "../../testing/until";
import type { ScriptedAgent } from "../testing/scripted-agent";
import { startScriptedAgent } from "../testing/scripted-agent";

const PORT = 3000;
const CLOSED_PORT = 3999;

/** The test app: a page with a title, text and a console error, and a page reaching for the outside. */
function appScript(outside: string[]): string {
  const page = [
    "<title>Plant shop</title><h1>Fresh ferns for sale</h1>",
    '<script>console.error("the cart failed to load")</script>',
  ].join("");
  // Images hold the load event until each one loaded or failed.
  const reach = [...outside.map((url) => `<img src="${url}">`), "<p>Reached for the outside</p>"].join("");
  return `
    require("http").createServer((req, res) => {
      res.setHeader("content-type", "text/html");
      if (req.url === "/never") return; // a page that never finishes loading
      res.end(req.url === "/reach" ? ${JSON.stringify(reach)} : ${JSON.stringify(page)});
    }).listen(${PORT}, "127.0.0.1", () => console.log("listening"));`;
}

describe("the agent's preview tool, with its browser beside a real workspace", () => {
  let agent: ScriptedAgent;
  let app: AttachedProcess;
  /** A server on the host, on every address, that counts who reached it. */
  let hostServer: http.Server;
  const hostHits: string[] = [];
  const streams = new AbortController();

  beforeAll(async () => {
    hostServer = http.createServer((req, res) => {
      hostHits.push(req.url ?? "");
      res.end("reached the host");
    });
    await new Promise<void>((resolve) => hostServer.listen(0, "0.0.0.0", resolve));
    const hostPort = (hostServer.address() as AddressInfo).port;
    const gateway = await hostBridgeAddress();
    agent = await startScriptedAgent({
      workspaceName: "preview",
      model: { fallback: () => ({ text: "done" }) },
    });
    const servicePort = new URL(agent.t.url).port;
    const outside = [
      `http://${gateway}:${hostPort}/from-the-browser.png`,
      `http://127.0.0.1:${servicePort}/api/trpc/workspace.list`,
      "http://1.1.1.1/outside.png",
    ];
    app = await instanceDriver(agent.t.instance).exec(agent.workspaceId, ["node", "-e", appScript(outside)]);
    await new Promise<void>((resolve, reject) => {
      app.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
      void app.exited.then((code) => reject(new Error(`the test app ended (exit code ${code})`)));
    });
  }, 180_000);

  afterAll(async () => {
    streams.abort();
    await app?.close();
    await agent?.close();
    await new Promise((resolve) => hostServer?.close(resolve));
  });

  /** Runs a turn in which the model calls preview once; the call as stored, and what the model was told. */
  async function previewCall(args: Record<string, unknown>): Promise<{ part: ToolPart; told: string }> {
    const first = agent.model.requests.length;
    agent.model.push({ toolCalls: [{ name: "preview", args }] });
    const { id, events } = await agent.session(streams.signal);
    const { turnId } = await agent.t.api.session.prompt.mutate({ sessionId: id, text: "look at the app" });
    await events.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId, 120_000);
    const part = events.all
      .flatMap((e) =>
        e.type === "part.updated" && e.part.type === "tool" && e.part.tool === "preview" ? [e.part] : [],
      )
      .at(-1);
    if (!part) throw new Error("the model's preview call left no part");
    const told = agent.model.requests
      .slice(first)
      .flatMap((_, i) => agent.model.toolResults(first + i))
      .join("\n");
    return { part, told };
  }

  it("shows the model the page's title, text and console error, and keeps a PNG of it for the chat", async () => {
    const { part, told } = await previewCall({ port: PORT, screenshot: true });
    expect(part.state).toBe("completed");
    expect(part.result).toMatchObject({
      ok: true,
      status: 200,
      title: "Plant shop",
      text: "Fresh ferns for sale",
      console_errors: ["the cart failed to load"],
      failed_requests: [],
    });
    const screenshot = part.result?.screenshot as { media_type: string; data: string };
    expect(screenshot.media_type).toBe("image/png");
    const png = Buffer.from(screenshot.data, "base64");
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
    expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual({
      width: 1280,
      height: 800,
    });
    expect(told).toContain("Title: Plant shop");
    expect(told).toContain("the cart failed to load");
    expect(told).toContain("Fresh ferns for sale");
    // The pixels go to models that read images, never into the text.
    expect(told).not.toContain(screenshot.data.slice(0, 100));
  });

  it("loads pages with the workspace's network only: the host, the service and the internet stay out of reach", async () => {
    const { part } = await previewCall({ port: PORT, path: "/reach" });
    expect(part.result).toMatchObject({ ok: true, text: "Reached for the outside" });
    const failed = (part.result?.failed_requests as { url: string }[]).map((r) => new URL(r.url).pathname);
    expect(failed.sort()).toEqual(["/api/trpc/workspace.list", "/from-the-browser.png", "/outside.png"]);
    expect(hostHits).toEqual([]);
  });

  it("tells the model plainly when nothing listens on the port", async () => {
    const { part, told } = await previewCall({ port: CLOSED_PORT });
    expect(part.result).toMatchObject({
      ok: false,
      error: { message: `nothing answers on port ${CLOSED_PORT} in the workspace` },
    });
    expect(told).toContain(`nothing answers on port ${CLOSED_PORT} in the workspace`);
  });

  it("stops the browser at once when the person cancels the turn, leaving no container", async () => {
    agent.model.push({ toolCalls: [{ name: "preview", args: { port: PORT, path: "/never" } }] });
    const { id, events } = await agent.session(streams.signal);
    const { turnId } = await agent.t.api.session.prompt.mutate({
      sessionId: id,
      text: "look at the slow page",
    });
    await until(
      async () => (await jobContainers(agent.t.instance, agent.workspaceId)).length > 0,
      "the browser job started",
    );
    await agent.t.api.session.abort.mutate({ sessionId: id });
    await events.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId, 20_000);
    await until(
      async () => (await jobContainers(agent.t.instance, agent.workspaceId)).length === 0,
      "the browser job is gone",
    );
  });

  it("leaves no browser container behind", async () => {
    expect(await jobContainers(agent.t.instance, agent.workspaceId)).toEqual([]);
  });
});
