import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Config } from "../../apps/sandbox/src/config";
import { type RunningService, startService } from "../../apps/sandbox/src/service";
import { newInstance, removeInstance, testServiceConfig } from "../../apps/sandbox/src/testing/harness";

const repo = path.resolve(import.meta.dirname, "../..");

/** A port free on loopback now (for a service whose address must be known before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

async function waitForHttp(
  url: string,
  timeoutMs: number,
  child: ChildProcess,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the web UI exited early:\n${log()}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`the web UI did not answer at ${url}:\n${log()}`);
}

export interface Stack {
  url: string;
  token: string;
  service: RunningService;
  instance: string;
  /** What the service was started with (another instance of it starts with the same). */
  config: Config;
  close(): Promise<void>;
}

/** A second service instance of a stack: same database, workspaces and web UI, its own port. */
export interface OtherInstance {
  url: string;
  service: RunningService;
  close(): Promise<void>;
}

export interface StackOptions {
  /**
   * The agent's settings (`CODER_OPENAI_COMPATIBLE_BASE_URL`, `CODER_MODELS`, `CODER_AGENT_CONFIG`, ...;
   * see apps/sandbox/src/config.ts). The stack reads nothing from this process's environment, so
   * without them the agent has no model, as on a fresh install.
   */
  agentEnv?: Record<string, string>;
  /** More service environment (`CODER_DATABASE_URL`, `CODER_IDLE_STOP_SECONDS`, `CODER_EGRESS_ALLOW`, …). */
  env?: Record<string, string>;
}

/**
 * The whole product as a user runs it: the production Next.js build (made by `npm test` before the
 * tests) behind the real sandbox service, on the real Docker engine.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const webPort = await freePort();
  let webLog = "";
  const next = spawn(
    process.execPath,
    [path.join(repo, "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(webPort)],
    {
      cwd: path.join(repo, "apps/web"),
      env: { ...process.env, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  next.stdout?.on("data", (c: Buffer) => {
    webLog += c.toString();
  });
  next.stderr?.on("data", (c: Buffer) => {
    webLog += c.toString();
  });
  const upstream = `http://127.0.0.1:${webPort}`;
  await waitForHttp(`${upstream}/login`, 60_000, next, () => webLog);

  const instance = newInstance();
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-e2e-"));
  const config = testServiceConfig(instance, dataDir, {
    CODER_WEB_UPSTREAM: upstream,
    CODER_MEMORY_MB: "1024",
    ...options.agentEnv,
    ...options.env,
  });
  const service = await startService(config, () => undefined);
  return {
    url: service.url,
    token: service.adminToken ?? "",
    service,
    instance,
    config,
    async close() {
      await service.close();
      next.kill("SIGTERM");
      await removeInstance(instance);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Another instance of the stack's service, as a second replica behind a load balancer: started
 * with the same configuration (so on the same database, which must be PostgreSQL, and the same
 * workspaces and web UI) but its own port and data folder. Close it before the stack.
 */
export async function startOtherInstance(stack: Stack): Promise<OtherInstance> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-e2e-other-"));
  const service = await startService({ ...stack.config, dataDir }, () => undefined);
  return {
    url: service.url,
    service,
    async close() {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
