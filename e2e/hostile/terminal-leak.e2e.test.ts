import { rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { connectLsp } from "../../apps/sandbox/src/lsp/testing/lsp-client";
import {
  execIn,
  removeInstance,
  startTestService,
  type TestService,
  waitForStatus,
} from "../../apps/sandbox/src/testing/harness";

/** An operator-configured server that ignores stdin EOF and `exit`, as a buggy one would. */
const STUBBORN_SERVER = {
  language: "stubborn",
  command: ["tail", "-f", "/dev/null"],
  extensions: ["stub"],
  install: "-",
};

/** Polls `read` until it returns `expected` or the wait runs out; returns what it saw last. */
async function settle(read: () => Promise<number>, expected: number, ms = 20_000): Promise<number> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await sleep(200);
    value = await read();
  }
  return value;
}

describe("a closed socket ends its process in the workspace", () => {
  let t: TestService;
  let id: string;
  beforeAll(async () => {
    t = await startTestService({}, { CODER_LSP_SERVERS: JSON.stringify([STUBBORN_SERVER]) });
    id = (await t.api.workspace.create.mutate({ name: "leaks" })).id;
    await waitForStatus(t.api, id, "running");
  });
  let serviceStopped = false;
  afterAll(async () => {
    if (!serviceStopped) await t?.close();
    else {
      await removeInstance(t.instance);
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });

  /** The workspace's processes (`ps` in the container sees them all). */
  async function processes(): Promise<{ pid: string; comm: string; args: string }[]> {
    const lines = async (format: string) =>
      new Map(
        (await execIn(t.instance, id, ["ps", "-eo", `pid=,${format}=`])).out.split("\n").flatMap((l) => {
          const m = l.match(/^\s*(\d+) (.*)$/);
          return m?.[1] ? [[m[1], (m[2] ?? "").trim()] as const] : [];
        }),
      );
    const comms = await lines("comm");
    const args = await lines("args");
    return [...comms].map(([pid, comm]) => ({ pid, comm, args: args.get(pid) ?? "" }));
  }
  const count = (test: (p: { comm: string; args: string }) => boolean) => async () =>
    (await processes()).filter(test).length;
  /** tmux clients, one per attached viewer; the server (`tmux: server`) is not counted. */
  const tmuxClients = count((p) => p.comm === "tmux: client");

  /** Opens a terminal socket, waits for `ready`, and returns it with its screen text. */
  async function terminal(name: string) {
    const ws = new WebSocket(`${t.url.replace("http", "ws")}/terminal/${id}/${name}`, {
      headers: { cookie: t.cookie, origin: t.url },
    });
    let screen = "";
    const ready = new Promise<void>((resolve, reject) => {
      ws.on("message", (data: Buffer, isBinary: boolean) => {
        if (!isBinary) {
          if (JSON.parse(data.toString()).type === "ready") resolve();
          return;
        }
        screen += data.toString("utf8");
        ws.send(JSON.stringify({ type: "ack", bytes: data.length }));
      });
      ws.once("error", reject);
      ws.once("close", (code, reason) => reject(new Error(`terminal closed: ${code} ${reason}`)));
    });
    await ready;
    const closed = new Promise<void>((resolve) => ws.once("close", () => resolve()));
    return {
      screen: () => screen,
      type: (text: string) => ws.send(Buffer.from(text), { binary: true }),
      async close() {
        ws.close();
        await closed;
      },
    };
  }

  async function shellPid(name: string): Promise<string> {
    const term = await terminal(name);
    term.type("echo shell-pid-$$-end\r");
    const pid = async () => term.screen().match(/shell-pid-(\d+)-end/)?.[1];
    const deadline = Date.now() + 15_000;
    while (!(await pid()) && Date.now() < deadline) await sleep(50);
    await term.close();
    const found = await pid();
    if (!found) throw new Error(`the shell never answered; the screen shows:\n${term.screen()}`);
    return found;
  }

  it("twenty reloads of a terminal leave no tmux client behind, and the shell lives on", async () => {
    const before = await tmuxClients();
    const pid = await shellPid("main");
    for (let i = 0; i < 20; i++) await (await terminal("main")).close();
    expect(await settle(tmuxClients, before)).toBe(before);
    expect(await shellPid("main")).toBe(pid);
    expect(await settle(tmuxClients, before)).toBe(before);
  });

  it("ten reopened sockets of a language server that ignores EOF and exit leave no server behind", async () => {
    const isServer = (p: { args: string }) => p.args === STUBBORN_SERVER.command.join(" ");
    const servers = count(isServer);
    const serverPids = async () => (await processes()).filter(isServer).map((p) => p.pid);
    const before = await servers();
    for (let i = 0; i < 10; i++) {
      const earlier = new Set(await serverPids());
      const client = await connectLsp(`${t.url.replace("http", "ws")}/lsp/${id}/stubborn`, {
        origin: t.url,
        cookie: t.cookie,
      });
      const started = async () => ((await serverPids()).some((pid) => !earlier.has(pid)) ? 1 : 0);
      expect(await settle(started, 1)).toBe(1);
      client.ws.close();
      await client.closed;
    }
    expect(await settle(servers, before)).toBe(before);
  });

  it("a hung daemon is ended when its connection is reset, so one daemon runs", async () => {
    const daemons = count((p) => p.args.includes("/opt/coder/daemon.mjs"));
    const daemon = t.service.daemons.connection(id);
    await daemon.ensure();
    expect(await settle(daemons, 1)).toBe(1);
    // Frozen, it would never see its stdin close.
    expect((await execIn(t.instance, id, ["pkill", "-STOP", "-f", "/opt/coder/daemon.mjs"])).code).toBe(0);
    daemon.reset();
    await daemon.request("ping", {});
    expect(await settle(daemons, 1)).toBe(1);
  });

  // Last: it stops the service (afterAll then only removes what the test made).
  it("a service that stops with terminals open leaves no tmux client behind", async () => {
    const before = await tmuxClients();
    await terminal("main");
    await terminal("second");
    expect(await settle(tmuxClients, before + 2)).toBe(before + 2);
    serviceStopped = true;
    await t.service.close();
    // Counted at once: the service has already waited for its processes to end.
    expect(await tmuxClients()).toBe(before);
  });
});
