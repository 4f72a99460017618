import { AccessCloseCode } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { connectLsp } from "../lsp/testing/lsp-client";
import {
  execIn,
  joinShare,
  openTerminal,
  startTestService,
  type TestService,
  trpcClient,
  waitForStatus,
} from "../testing/harness";
import { until } from "../testing/until";

/** Guests log in through real share links and open the service's real socket routes. */
describe("what a guest's terminal and language server sockets may do", () => {
  let t: TestService;
  let id: string;
  let url: string;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestService();
    url = t.url;
    id = (await t.api.workspace.create.mutate({ name: "guests" })).id;
    const other = (await t.api.workspace.create.mutate({ name: "elsewhere" })).id;
    await waitForStatus(t.api, id, "running");
    const join = async (on: string, role: "viewer" | "editor", name: string) =>
      joinShare(t.url, (await t.api.share.create.mutate({ workspaceId: on, role })).url, name);
    cookies.viewer = await join(id, "viewer", "Vera");
    cookies.editor = await join(id, "editor", "Ed");
    cookies.elsewhere = await join(other, "editor", "Olga");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("shows a viewer the terminal's screen, but what the viewer types never reaches the shell", async () => {
    const owner = await openTerminal(t.url, t.cookie, id, "watched");
    await owner.waitFor(/\$ /);
    const viewer = await openTerminal(url, cookies.viewer ?? "", id, "watched");
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

  it("keeps a shared terminal at the size of those who may type, not at a viewer's small screen", async () => {
    const tmux = async (...args: string[]) => (await execIn(t.instance, id, ["tmux", ...args])).out.trim();
    const owner = await openTerminal(url, t.cookie, id, "sized");
    owner.send("echo owner-typed\r");
    await owner.waitFor(/owner-typed/);
    const viewer = await openTerminal(url, cookies.viewer ?? "", id, "sized");
    await viewer.waitFor(/owner-typed/);
    viewer.ws.send(JSON.stringify({ type: "resize", cols: 20, rows: 5 }));
    await until(
      async () =>
        (await tmux("list-clients", "-t", "sized", "-F", "#{client_width}x#{client_height}")).includes(
          "20x5",
        ),
      "the viewer's small screen reached tmux",
    );
    expect(await tmux("display-message", "-p", "-t", "sized", "#{window_width}x#{window_height}")).toBe(
      "120x30",
    );
    owner.ws.close();
    viewer.ws.close();
  });

  it("never starts a shell for a viewer: a terminal no one opened is refused and stays unopened", async () => {
    const viewer = await openTerminal(url, cookies.viewer ?? "", id, "unopened");
    const closed = new Promise<{ code: number; told: string }>((resolve) => {
      let told = "";
      viewer.ws.on("message", (data: Buffer, isBinary: boolean) => {
        if (!isBinary) told += data.toString();
      });
      viewer.ws.on("close", (code) => resolve({ code, told }));
    });
    const { code, told } = await closed;
    expect(code).toBe(1000);
    expect(told).toContain('no terminal \\"unopened\\" is open');
    expect((await execIn(t.instance, id, ["tmux", "has-session", "-t", "=unopened"])).code).not.toBe(0);
  });

  it("lists the open terminals to a viewer, oldest first, with one a shell made itself", async () => {
    const viewerApi = trpcClient(url, cookies.viewer ?? "");
    const first = await openTerminal(url, t.cookie, id, "listed-1");
    await first.waitFor(/\$ /);
    first.send("tmux new-session -d -s made-in-shell\r");
    await until(
      async () => (await viewerApi.terminal.list.query({ workspaceId: id })).names.includes("made-in-shell"),
      "the session made in the shell is listed",
    );
    const { names } = await viewerApi.terminal.list.query({ workspaceId: id });
    expect(names.indexOf("listed-1")).toBeLessThan(names.indexOf("made-in-shell"));
    expect(names).not.toContain("unopened");
    first.ws.close();
  });

  it("lets an editor type in the terminal", async () => {
    const editor = await openTerminal(url, cookies.editor ?? "", id, "edited");
    editor.send("echo editor-typed-$((3+3))\r");
    await editor.waitFor(/editor-typed-6/);
    editor.ws.close();
  });

  it("refuses a guest of another workspace with 4403 on every socket path", async () => {
    for (const path of [`terminal/${id}/main`, `lsp/${id}/bash`]) {
      const code = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`${url.replace("http", "ws")}/${path}`, {
          headers: { cookie: cookies.elsewhere ?? "", origin: url },
        });
        ws.on("close", (c) => resolve(c));
      });
      expect({ path, code }).toEqual({ path, code: AccessCloseCode.Forbidden });
    }
  });

  it("answers a viewer's rename with an error instead of asking the language server", async () => {
    const client = await connectLsp(`${url.replace("http", "ws")}/lsp/${id}/bash`, {
      cookie: cookies.viewer ?? "",
      origin: url,
    });
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
