import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { LspServerConfig } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LspNotInstalledError, LspServerError } from "./errors";
import { LspManager } from "./manager";
import { fakePython } from "./testing/fake-lsp";

let scratch: string;
let pidFile: string;
let managers: LspManager[];
beforeEach(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "coder-lsp-manager-"));
  pidFile = path.join(scratch, "pids");
  managers = [];
});
afterEach(async () => {
  await Promise.all(managers.map((m) => m.stopAll()));
  await rm(scratch, { recursive: true, force: true });
});

function manager(idleTimeoutMs = 60_000): LspManager {
  const m = new LspManager({ idleTimeoutMs, requestTimeoutMs: 10_000 });
  managers.push(m);
  return m;
}

async function pids(): Promise<number[]> {
  const { readFile } = await import("node:fs/promises");
  const text = await readFile(pidFile, "utf8").catch(() => "");
  return text.split("\n").filter(Boolean).map(Number);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}

const alive = async (client: { alive: boolean }) => client.alive;

describe("LspManager", () => {
  it("starts one server per language and workspace root, on first use, and reuses it", async () => {
    const m = manager();
    const server = fakePython({ pidFile });
    expect((await m.use(server, "/tmp", alive)).status).toBe("started");
    expect((await m.use(server, "/tmp", alive)).status).toBe("running");
    expect(await pids()).toHaveLength(1);
    expect((await m.use(server, scratch, alive)).status).toBe("started");
    expect(await pids()).toHaveLength(2);
  });

  it("starts a server again after it crashed between calls", async () => {
    const m = manager();
    const server = fakePython({ pidFile });
    await m.use(server, scratch, alive);
    const [first] = await pids();
    process.kill(first as number, "SIGKILL");
    await until(() => !m.isRunning("python", scratch));
    const again = await m.use(server, scratch, alive);
    expect(again).toEqual({ value: true, status: "restarted" });
    expect(await pids()).toHaveLength(2);
  });

  it("stops a server that was not used for the idle time, and starts it afresh later", async () => {
    const m = manager(50);
    const server = fakePython({ pidFile });
    await m.use(server, scratch, alive);
    await until(() => !m.isRunning("python", scratch));
    const [first] = await pids();
    await until(() => !isAlive(first as number));
    expect((await m.use(server, scratch, alive)).status).toBe("started");
  });

  it("does not stop a server while a call is using it", async () => {
    const m = manager(1);
    const server = fakePython({ pidFile });
    const result = await m.use(server, scratch, async (client) => {
      await sleep(50);
      return client.alive;
    });
    expect(result.value).toBe(true);
  });

  it("stops every server on stopAll", async () => {
    const m = manager();
    await m.use(fakePython({ pidFile }), scratch, alive);
    const [pid] = await pids();
    await m.stopAll();
    expect(m.isRunning("python", scratch)).toBe(false);
    await until(() => !isAlive(pid as number));
  });

  it("reports a server that exits during its start, with its last words", async () => {
    const crashing: LspServerConfig = {
      language: "python",
      command: [process.execPath, "-e", "console.error('cannot load plugins'); process.exit(2)"],
      extensions: ["py"],
      install: "x",
    };
    const error = await manager()
      .use(crashing, scratch, alive)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LspServerError);
    expect((error as Error).message).toMatch(/exited \(2\) during initialize: cannot load plugins/);
  });

  it("counts a program that is missing, or a wrapper exiting 127, as not installed", async () => {
    const missing = {
      language: "python",
      command: ["no-such-lsp-anywhere"],
      extensions: ["py"],
      install: "x",
    };
    await expect(manager().use(missing, scratch, alive)).rejects.toBeInstanceOf(LspNotInstalledError);
    const wrapper = { ...missing, command: ["sh", "-c", "exit 127"] };
    await expect(manager().use(wrapper, scratch, alive)).rejects.toBeInstanceOf(LspNotInstalledError);
  });
});
