import { AccessCloseCode, DEFAULT_LSP_SERVERS } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { DockerDriver } from "../docker/docker-driver";
import { TerminalDirectory } from "../terminal/terminal-directory";
import { startTestService, type TestService, waitForStatus } from "../testing/harness";
import { socketRoutes } from "./socket-route-table";

/** Every WebSocket path the service serves, with a valid last segment for each (checked below). */
const SOCKET_PATHS = [
  { prefix: "terminal", name: "main" },
  { prefix: "lsp", name: "bash" },
  { prefix: "collab", name: "tab1" },
];

/**
 * What became of an upgrade: `http <status>` (refused before the upgrade), `close <code>`
 * (accepted, then closed), or `ready` (a terminal said it is ready).
 */
function outcome(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on("unexpected-response", (_req, res) => resolve(`http ${res.statusCode}`));
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      if (!isBinary && data.toString().includes('"ready"')) {
        resolve("ready");
        ws.close();
      }
    });
    ws.on("close", (code) => resolve(`close ${code}`));
    ws.on("error", () => resolve("error"));
  });
}

describe("who may open a terminal, language server or collaboration socket", () => {
  let t: TestService;
  let id: string;
  const wsBase = () => t.url.replace("http", "ws");
  const owner = () => ({ origin: t.url, cookie: t.cookie });
  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "sockets" })).id;
    await waitForStatus(t.api, id, "running");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("covers every socket route the service serves", () => {
    const driver = new DockerDriver({
      instance: t.instance,
      runtime: "runc",
      memoryBytes: 512 * 1024 * 1024,
      nanoCpus: 1e9,
      pidsLimit: 256,
    });
    const collab = t.service.collab.route(() => ({ name: "x", color: "#000000", colorLight: "#00000033" }));
    const terminals = new TerminalDirectory(driver);
    const served = socketRoutes(
      driver,
      terminals,
      () => undefined,
      DEFAULT_LSP_SERVERS,
      collab,
      t.service.audit,
    ).map((r) => r.prefix);
    expect(served).toEqual(SOCKET_PATHS.map((p) => p.prefix));
  });

  for (const { prefix, name } of SOCKET_PATHS) {
    it(`says "logged out" on /${prefix} without a session or with a forged one`, async () => {
      const url = `${wsBase()}/${prefix}/${id}/${name}`;
      expect(await outcome(url, { origin: t.url })).toBe(`close ${AccessCloseCode.LoggedOut}`);
      expect(await outcome(url, { origin: t.url, cookie: "coder_session=forged" })).toBe(
        `close ${AccessCloseCode.LoggedOut}`,
      );
      // Malformed percent-encoding is a forged cookie too, not a service error.
      expect(await outcome(url, { origin: t.url, cookie: "coder_session=%E0%A4%A" })).toBe(
        `close ${AccessCloseCode.LoggedOut}`,
      );
    });

    it(`says "no such workspace" on /${prefix} for a workspace that does not exist`, async () => {
      const url = `${wsBase()}/${prefix}/nosuchworkspace0/${name}`;
      expect(await outcome(url, owner())).toBe(`close ${AccessCloseCode.NoWorkspace}`);
    });

    it(`refuses /${prefix} from another origin before the upgrade`, async () => {
      const url = `${wsBase()}/${prefix}/${id}/${name}`;
      expect(await outcome(url, { origin: "http://evil.example", cookie: t.cookie })).toBe("http 403");
    });
  }

  it("opens a terminal for the owner, and says the workspace is not running once it is stopped", async () => {
    expect(await outcome(`${wsBase()}/terminal/${id}/main`, owner())).toBe("ready");
    await t.api.workspace.stop.mutate({ workspaceId: id });
    await waitForStatus(t.api, id, "stopped");
    for (const { prefix, name } of SOCKET_PATHS) {
      expect(await outcome(`${wsBase()}/${prefix}/${id}/${name}`, owner())).toBe(
        `close ${AccessCloseCode.NotRunning}`,
      );
    }
  });
});
