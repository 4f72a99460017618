import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureRedis } from "../../../../../scripts/lib/redis.mjs";
import { until } from "../../testing/until";

export interface RedisServer {
  url: string;
  /** Stops the server's process where it is (SIGSTOP): connections stay open, nothing answers. */
  freeze(): void;
  /** Lets it go on (SIGCONT). */
  thaw(): void;
  stop(): Promise<void>;
}

/** A port nobody listens on now (the kernel's pick on loopback). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

/**
 * A throwaway Redis server for tests: loopback only, on a free port, in a folder of its own,
 * without persistence; killed by `stop`. Installs Debian's redis-server first when it is missing.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const bin = await ensureRedis();
  const dir = mkdtempSync(path.join(tmpdir(), "coder-redis-"));
  const port = await freePort();
  let output = "";
  const child: ChildProcess = spawn(
    bin,
    ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const stop = async () => {
    child.kill("SIGCONT");
    child.kill("SIGKILL");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(() => {
      if (child.exitCode !== null) throw new Error(`redis-server exited:\n${output}`);
      return /Ready to accept connections/.test(output);
    }, "redis-server ready");
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    freeze: () => child.kill("SIGSTOP"),
    thaw: () => child.kill("SIGCONT"),
    stop,
  };
}
