import { LspCloseCode, type LspServerConfig } from "@coder/protocol";
import { afterEach, describe, expect, it } from "vitest";
import type { AttachedProcess } from "../driver/workspace-driver";
import { ECHO_SERVER, localDriver } from "./testing/local-driver";
import { connectLsp as connect } from "./testing/lsp-client";
import { type LocalProxy, startLocalProxy } from "./testing/proxy-server";

const SERVERS: LspServerConfig[] = [
  {
    language: "echo",
    command: [process.execPath, ECHO_SERVER],
    extensions: ["echo"],
    install: "npm i -g echo-ls",
  },
  {
    language: "ghost",
    command: ["coder-test-no-such-server"],
    extensions: ["gh"],
    install: "apt install ghost-ls",
  },
];

let proxies: LocalProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  proxies = [];
});

/** A local proxy whose "container" is this machine; `processes` are the servers it started. */
async function proxy(): Promise<{ url: string; processes: AttachedProcess[] }> {
  const { driver, processes } = localDriver();
  const started = await startLocalProxy(driver, "w1", SERVERS);
  proxies.push(started);
  return { url: started.url, processes };
}

describe("the LSP WebSocket proxy", () => {
  it("forwards messages both ways and points initialize at the container's workspace", async () => {
    const { url } = await proxy();
    const client = await connect(`${url}/echo`);
    const initialize = client.request("initialize", {
      processId: 4242,
      rootUri: "file:///home/me/project",
      workspaceFolders: [{ uri: "file:///home/me/project", name: "project" }],
      capabilities: { textDocument: { hover: {} } },
    });
    expect(await initialize).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        received: {
          method: "initialize",
          params: {
            processId: null,
            rootPath: "/workspace",
            rootUri: "file:///workspace",
            workspaceFolders: [{ uri: "file:///workspace", name: "workspace" }],
            capabilities: { textDocument: { hover: {} } },
          },
        },
      },
    });
    const hover = await client.request("textDocument/hover", { position: { line: 0, character: 0 } });
    expect(hover).toMatchObject({ id: 2, result: { received: { method: "textDocument/hover" } } });
    client.ws.close();
  });

  it("ends the server's process when the socket closes", async () => {
    const { url, processes } = await proxy();
    const client = await connect(`${url}/echo`);
    await client.request("ping");
    client.ws.close();
    expect(await processes[0]?.exited).toBe(0);
  });

  it("closes with 1011 and the server's last words when it crashes", async () => {
    const { url } = await proxy();
    const client = await connect(`${url}/echo`);
    client.notify("test/crash");
    const { code, reason } = await client.closed;
    expect(code).toBe(LspCloseCode.ServerError);
    expect(reason).toMatch(/exited \(3\): boom$/);
  });

  it("closes normally when the editor asked the server to exit", async () => {
    const { url } = await proxy();
    const client = await connect(`${url}/echo`);
    await client.request("shutdown");
    client.notify("exit");
    expect(await client.closed).toEqual({ code: LspCloseCode.Normal, reason: "language server stopped" });
  });

  it("closes with 1011 and the install command when the server is not installed", async () => {
    const { url } = await proxy();
    const client = await connect(`${url}/ghost`);
    expect(await client.closed).toEqual({
      code: LspCloseCode.ServerError,
      reason: "coder-test-no-such-server not installed, run: apt install ghost-ls",
    });
  });

  it("closes with 1008 for a language without a server, naming the configured ones", async () => {
    const { url } = await proxy();
    const client = await connect(`${url}/cobol`);
    expect(await client.closed).toEqual({
      code: LspCloseCode.UnknownLanguage,
      reason: 'no language server for "cobol"; configured: echo, ghost',
    });
  });

  it("refuses a message over 4 MB from the editor with 1009", async () => {
    const { url } = await proxy();
    const client = await connect(`${url}/echo`);
    client.notify("textDocument/didOpen", { text: "x".repeat(4 * 1024 * 1024) });
    expect((await client.closed).code).toBe(LspCloseCode.TooBig);
  });

  it("refuses a message over 4 MB from the server with 1009", async () => {
    const { url } = await proxy();
    const client = await connect(`${url}/echo`);
    void client.request("test/big").catch(() => undefined);
    expect((await client.closed).code).toBe(LspCloseCode.TooBig);
  });

  it("refuses binary frames with 1003 and frames that are not JSON-RPC with 1007", async () => {
    const { url } = await proxy();
    const binary = await connect(`${url}/echo`);
    binary.ws.send(Buffer.from("{}"), { binary: true });
    expect((await binary.closed).code).toBe(LspCloseCode.UnsupportedData);
    const garbage = await connect(`${url}/echo`);
    garbage.ws.send("not json");
    expect((await garbage.closed).code).toBe(LspCloseCode.InvalidMessage);
    const batch = await connect(`${url}/echo`);
    batch.ws.send(JSON.stringify([{ jsonrpc: "2.0", method: "a" }]));
    expect((await batch.closed).code).toBe(LspCloseCode.InvalidMessage);
  });
});
