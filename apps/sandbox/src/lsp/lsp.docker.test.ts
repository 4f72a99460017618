import { setTimeout as sleep } from "node:timers/promises";
import { DEFAULT_LSP_SERVERS, LspCloseCode, type LspServerConfig } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  execIn,
  instanceDriver,
  startTestService,
  type TestService,
  waitForStatus,
} from "../testing/harness";
import { connectLsp, type LspSocketClient } from "./testing/lsp-client";
import { type LocalProxy, startLocalProxy } from "./testing/proxy-server";

const PYTHON =
  'def greet(name: str, times: int = 1) -> str:\n    """Say hello."""\n    return name * times\n\ngreet("a")\n';
const SHELL = "#!/bin/bash\nhello() { echo hi; }\nhello\n";
const SERVERS: LspServerConfig[] = [
  ...DEFAULT_LSP_SERVERS,
  {
    language: "ghost",
    command: ["ghost-language-server"],
    extensions: ["gh"],
    install: "apt install ghost-ls",
  },
];

/** The handshake an editor makes, with values the proxy must replace (a host pid, a host root). */
async function initialize(client: LspSocketClient): Promise<void> {
  const response = await client.request("initialize", {
    processId: 999_999,
    rootUri: "file:///home/someone/project",
    capabilities: { textDocument: { hover: { contentFormat: ["markdown", "plaintext"] } } },
  });
  expect(response.error).toBeUndefined();
  client.notify("initialized", {});
}

function open(client: LspSocketClient, path: string, languageId: string, text: string): void {
  client.notify("textDocument/didOpen", {
    textDocument: { uri: `file:///workspace/${path}`, languageId, version: 1, text },
  });
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await sleep(100);
}

describe("language servers in a workspace, through the LSP proxy", () => {
  let t: TestService;
  let id: string;
  let proxy: LocalProxy;
  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "lsp" })).id;
    await waitForStatus(t.api, id, "running");
    await t.api.files.write.mutate({ workspaceId: id, path: "greet.py", content: PYTHON });
    await t.api.files.write.mutate({ workspaceId: id, path: "hello.sh", content: SHELL });
    const driver = instanceDriver(t.instance);
    proxy = await startLocalProxy(driver, id, SERVERS);
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });

  it("answers a hover on a Python call with the function's signature, and finds its definition", async () => {
    const client = await connectLsp(`${proxy.url}/python`);
    await initialize(client);
    open(client, "greet.py", "python", PYTHON);
    const hover = await client.request("textDocument/hover", {
      textDocument: { uri: "file:///workspace/greet.py" },
      position: { line: 4, character: 2 },
    });
    expect(JSON.stringify(hover.result)).toContain("greet(name: str, times: int=1) -> str");
    const definition = await client.request("textDocument/definition", {
      textDocument: { uri: "file:///workspace/greet.py" },
      position: { line: 4, character: 2 },
    });
    expect(definition.result).toEqual([
      {
        uri: "file:///workspace/greet.py",
        range: { start: { line: 0, character: 4 }, end: { line: 0, character: 9 } },
      },
    ]);
    client.ws.close();
  });

  it("answers a hover on a shell function from bash-language-server", async () => {
    const client = await connectLsp(`${proxy.url}/bash`);
    await initialize(client);
    open(client, "hello.sh", "shellscript", SHELL);
    const hover = await client.request("textDocument/hover", {
      textDocument: { uri: "file:///workspace/hello.sh" },
      position: { line: 2, character: 1 },
    });
    expect(JSON.stringify(hover.result)).toContain("hello");
    client.ws.close();
  });

  it("ends the server in the container when the socket closes", async () => {
    const client = await connectLsp(`${proxy.url}/bash`);
    await initialize(client);
    const running = async () =>
      (await execIn(t.instance, id, ["pgrep", "-f", "bash-language-server start"])).code === 0;
    expect(await running()).toBe(true);
    client.ws.close();
    await until(async () => !(await running()));
  });

  it("closes the socket with 1011 and a reason when the server crashes", async () => {
    const client = await connectLsp(`${proxy.url}/python`);
    await initialize(client);
    await execIn(t.instance, id, ["pkill", "-KILL", "-x", "pylsp"]);
    const { code, reason } = await client.closed;
    expect(code).toBe(LspCloseCode.ServerError);
    expect(reason).toMatch(/^pylsp exited/);
  });

  it("closes the socket with the install command when the server is not installed", async () => {
    const client = await connectLsp(`${proxy.url}/ghost`);
    expect(await client.closed).toEqual({
      code: LspCloseCode.ServerError,
      reason: "ghost-language-server not installed, run: apt install ghost-ls",
    });
  });
});

describe("the service's /lsp route", () => {
  let t: TestService;
  let id: string;
  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "lsp-route" })).id;
    await waitForStatus(t.api, id, "running");
    await t.api.files.write.mutate({ workspaceId: id, path: "greet.py", content: PYTHON });
  });
  afterAll(async () => {
    await t?.close();
  });

  function upgradeStatus(headers: Record<string, string>): Promise<number> {
    return new Promise((resolve) => {
      const ws = new WebSocket(`${t.url.replace("http", "ws")}/lsp/${id}/python`, { headers });
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => {
        ws.close();
        resolve(101);
      });
      ws.on("error", () => resolve(-1));
    });
  }

  // Without a session the socket is accepted and closed with 4401: socket-access.docker.test.ts.
  it("refuses an upgrade from another origin", async () => {
    expect(await upgradeStatus({ origin: "https://evil.example", cookie: t.cookie })).toBe(403);
  });

  it("reaches the workspace's language server with the session cookie", async () => {
    const client = await connectLsp(`${t.url.replace("http", "ws")}/lsp/${id}/python`, {
      origin: t.url,
      cookie: t.cookie,
    });
    await initialize(client);
    open(client, "greet.py", "python", PYTHON);
    const hover = await client.request("textDocument/hover", {
      textDocument: { uri: "file:///workspace/greet.py" },
      position: { line: 4, character: 2 },
    });
    expect(JSON.stringify(hover.result)).toContain("greet(name: str, times: int=1) -> str");
    client.ws.close();
  });
});
