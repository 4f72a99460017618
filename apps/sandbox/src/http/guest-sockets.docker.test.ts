import http from "node:http";
import type { AddressInfo } from "node:net";
import { AccessCloseCode, DEFAULT_LSP_SERVERS } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { Principal } from "../auth/principal";
import { DockerDriver } from "../docker/docker-driver";
import { connectLsp } from "../lsp/testing/lsp-client";
import { openTerminal, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { socketRoutes } from "./socket-route-table";
import { SocketRouter } from "./socket-routes";

/**
 * Guests cannot log in yet (share links come next), so this serves the real socket routes through
 * the real `SocketRouter`, driver and workspace, with the principal named by the cookie header
 * standing in for the login check.
 */
describe("what a guest's terminal and language server sockets may do", () => {
  let t: TestService;
  let id: string;
  let server: http.Server;
  let url: string;
  const guest = (role: "viewer" | "editor", workspaceId: string): Principal => ({
    kind: "guest",
    sessionId: `${role}-${workspaceId}`,
    shareId: "share1",
    workspaceId,
    name: role,
    role,
  });

  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "guests" })).id;
    await waitForStatus(t.api, id, "running");
    const driver = new DockerDriver({
      instance: t.instance,
      runtime: "runc",
      memoryBytes: 512 * 1024 * 1024,
      nanoCpus: 1e9,
      pidsLimit: 256,
    });
    const principals: Record<string, Principal> = {
      viewer: guest("viewer", id),
      editor: guest("editor", id),
      elsewhere: guest("editor", "anotherworkspace1"),
    };
    const log = () => undefined;
    const router = new SocketRouter(socketRoutes(driver, log, DEFAULT_LSP_SERVERS), {
      principalOf: async (req) => principals[req.headers.cookie ?? ""] ?? null,
      workspaces: t.service.workspaces,
      connections: t.service.auth.connections,
    });
    server = http.createServer();
    server.on("upgrade", (req, socket, head) => {
      const match = router.match(req.url ?? "");
      if (match && match !== "bad") void router.handle(req, socket, head, match);
      else socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  it("shows a viewer the terminal's screen, but what the viewer types never reaches the shell", async () => {
    const owner = await openTerminal(t.url, t.cookie, id, "watched");
    const viewer = await openTerminal(url, "viewer", id, "watched");
    const refused = new Promise<string>((resolve) =>
      viewer.ws.on("message", (data: Buffer, isBinary: boolean) => {
        if (!isBinary && data.toString().includes("read-only")) resolve(data.toString());
      }),
    );
    viewer.send("echo viewer-typed-$((1+1))\r");
    expect(await refused).toContain("read-only");
    owner.send("echo owner-typed-$((2+2))\r");
    await owner.waitFor(/owner-typed-4/);
    await viewer.waitFor(/owner-typed-4/);
    expect(owner.output()).not.toContain("viewer-typed");
    owner.ws.close();
    viewer.ws.close();
  });

  it("lets an editor type in the terminal", async () => {
    const editor = await openTerminal(url, "editor", id, "edited");
    editor.send("echo editor-typed-$((3+3))\r");
    await editor.waitFor(/editor-typed-6/);
    editor.ws.close();
  });

  it("refuses a guest of another workspace with 4403 on every socket path", async () => {
    for (const path of [`terminal/${id}/main`, `lsp/${id}/bash`]) {
      const code = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`${url.replace("http", "ws")}/${path}`, {
          headers: { cookie: "elsewhere" },
        });
        ws.on("close", (c) => resolve(c));
      });
      expect({ path, code }).toEqual({ path, code: AccessCloseCode.Forbidden });
    }
  });

  it("answers a viewer's rename with an error instead of asking the language server", async () => {
    const client = await connectLsp(`${url.replace("http", "ws")}/lsp/${id}/bash`, { cookie: "viewer" });
    const init = await client.request("initialize", { processId: null, rootUri: null, capabilities: {} });
    expect(init.error).toBeUndefined();
    const rename = await client.request("textDocument/rename", {
      textDocument: { uri: "file:///workspace/a.sh" },
      position: { line: 0, character: 0 },
      newName: "b",
    });
    expect(rename.error).toMatchObject({ code: -32803, message: expect.stringContaining("read-only") });
    client.ws.close();
  });
});
