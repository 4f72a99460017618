import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DAEMON_PROTOCOL_VERSION, type DaemonRequests } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleDaemonInto, connectToProcess } from "./testing/process";

// The daemon as it runs in a container: the esbuild bundle, a real process, JSON-RPC on its stdio.
let dir: string;
let bundle: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "coder-daemon-bundle-"));
  bundle = await bundleDaemonInto(dir);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Starts the bundled daemon on a fresh workspace folder, connected over its stdio. */
async function startProcess() {
  const root = await mkdtemp(path.join(dir, "ws-"));
  return connectToProcess(process.execPath, [bundle, "--root", root, "--spill-dir", path.join(dir, "spill")]);
}

function processesRunning(marker: string): boolean {
  return execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).includes(marker);
}

describe("the bundled daemon process", () => {
  it("answers ping and a file round trip over stdio, and exits when stdin closes", async () => {
    const { child, client, hangUp } = await startProcess();
    const ping = await client.sendRequest<DaemonRequests["ping"]["result"]>("ping", {});
    expect(ping).toMatchObject({ version: DAEMON_PROTOCOL_VERSION, pid: child.pid });
    await client.sendRequest("fs.write", { path: "hello.txt", content: "hi from the test" });
    const read = await client.sendRequest<DaemonRequests["fs.read"]["result"]>("fs.read", {
      path: "hello.txt",
      maxBytes: 1000,
    });
    expect(read).toMatchObject({ kind: "text", content: "hi from the test" });
    const { tools } = await client.sendRequest<DaemonRequests["tools.list"]["result"]>("tools.list", {});
    expect(tools.map((t) => t.id)).toEqual(expect.arrayContaining(["read", "bash"]));
    expect(await hangUp()).toBe(0);
  });

  it("stops a running command when stdin closes, leaving no process behind", async () => {
    const { client, hangUp } = await startProcess();
    const marker = `sleep 30.${process.pid}${Date.now() % 1000}`;
    const started = new Promise<void>((resolve) => client.onNotification("tools.progress", () => resolve()));
    void client
      .sendRequest("tools.execute", {
        tool: "bash",
        args: { command: `echo started; ${marker}` },
        sessionId: "s",
        callId: "c",
      })
      .catch(() => {});
    await started;
    expect(processesRunning(marker)).toBe(true);
    expect(await hangUp()).toBe(0);
    while (processesRunning(marker)) await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it("exits with status 2 on an unusable command line", async () => {
    const daemon = connectToProcess(process.execPath, [bundle, "--bogus"]);
    expect(await daemon.exited).toBe(2);
    expect(daemon.stderr()).toMatch(/usage:/);
  });
});
