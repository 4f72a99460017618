import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { MAX_CALLS_PER_BATCH, type Workspace } from "@coder/protocol";
import { createTRPCClient, httpBatchLink, type TRPCClient } from "@trpc/client";
import WebSocket from "ws";
import { type Config, loadConfig } from "../config";
import { createDriver } from "../create-driver";
import type { WorkspaceDriver } from "../driver/workspace-driver";
import { type RunningService, type ServiceOptions, startService } from "../service";
import type { AppRouter } from "../trpc/router";
import { outputOf } from "./process-output";

export function requireImage(): string {
  const image = process.env.CODER_IMAGE;
  if (!image)
    throw new Error("CODER_IMAGE is not set: run the tests through `npm test`, which builds the image");
  return image;
}

export function newInstance(): string {
  return `t${randomBytes(4).toString("hex")}`;
}

/**
 * The driver a test instance's service uses, to reach its workspaces the way the service does
 * (`env`: other settings of the same instance, such as another preview relay).
 */
export function instanceDriver(instance: string, env: Record<string, string> = {}): WorkspaceDriver {
  return createDriver(loadConfig({ CODER_IMAGE: requireImage(), CODER_INSTANCE: instance, ...env }));
}

/** Removes every workspace (with its volumes) and what they shared that a test instance made. */
export async function removeInstance(instance: string): Promise<void> {
  await instanceDriver(instance).removeAll();
}

/** Logs in through the real `/auth/login` route and returns the session cookie. */
export async function login(url: string, token: string): Promise<string> {
  const res = await fetch(`${url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ token }),
  });
  if (res.status !== 204) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  if (!cookie) throw new Error("login set no cookie");
  return cookie;
}

/** Joins through a share link's URL with the real `/auth/share` route; returns the guest cookie. */
export async function joinShare(url: string, shareUrl: string, name: string): Promise<string> {
  const res = await postShare(url, shareUrl.split("/s/")[1] ?? "", name);
  if (res.status !== 204) throw new Error(`joining failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  if (!cookie) throw new Error("joining set no cookie");
  return cookie;
}

/** `POST /auth/share` as the join page sends it. */
export function postShare(url: string, secret: string, name: string): Promise<Response> {
  return fetch(`${url}/auth/share`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ secret, name }),
  });
}

export function trpcClient(url: string, cookie?: string): TRPCClient<AppRouter> {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${url}/api/trpc`,
        maxItems: MAX_CALLS_PER_BATCH,
        headers: () => ({ origin: url, ...(cookie ? { cookie } : {}) }),
      }),
    ],
  });
}

export interface TestService {
  service: RunningService;
  url: string;
  cookie: string;
  api: TRPCClient<AppRouter>;
  instance: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Test services keep no warm pool unless a test asks for one (CODER_WARM_POOL): spares filling in
 * the background would add containers and load that the other tests neither expect nor need; and
 * refuse no work for being busy unless a test asks (CODER_BUSY_LAG_MS). Their
 * people's limits are out of the way unless a test sets its own (workspaces/user-limits.ts).
 */
const TEST_SERVICE_ENV = {
  CODER_WARM_POOL: "0",
  // A test's own synchronous work runs on its service's thread (a production service's does not),
  // so its lag is not the service's backlog: shedding is on where a test asks for it.
  CODER_BUSY_LAG_MS: "0",
  CODER_DEFAULT_LIMITS: "workspaces=1000,running=1000,memoryMb=10000000,cpus=10000,diskMb=100000000",
  // Set for a run: the live-document tests run through Redis as several instances would.
  ...(process.env.CODER_REDIS_URL ? { CODER_REDIS_URL: process.env.CODER_REDIS_URL } : {}),
};

/**
 * The configuration of a service under test: the test image, its own data folder and container
 * label, a random port, modest limits, no warm pool; `env` adds or overrides.
 */
export function testServiceConfig(instance: string, dataDir: string, env: Record<string, string> = {}) {
  return loadConfig({
    CODER_IMAGE: requireImage(),
    CODER_DATA_DIR: dataDir,
    CODER_PORT: "0",
    CODER_INSTANCE: instance,
    CODER_MEMORY_MB: "512",
    ...TEST_SERVICE_ENV,
    ...env,
  });
}

export interface TestServiceOptions extends ServiceOptions {
  /** The agent's settings (`CODER_OPENAI_COMPATIBLE_BASE_URL`, `CODER_MODELS`, …); none: no model, as on a fresh install. */
  agentEnv?: Record<string, string>;
  /** Where its workspaces run, made for its configuration (a test's own engine); none: the configured driver. */
  driverOf?: (config: Config) => WorkspaceDriver;
}

/** The real service in-process, on a random port, with its own data folder and container label. */
export async function startTestService(
  options: TestServiceOptions = {},
  env: Record<string, string> = {},
  log: (line: string) => void = () => undefined,
): Promise<TestService> {
  const instance = newInstance();
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-test-"));
  const { agentEnv, driverOf, ...serviceOptions } = options;
  const config = testServiceConfig(instance, dataDir, {
    CODER_PIDS_LIMIT: "256",
    CODER_CPUS: "1",
    ...agentEnv,
    ...env,
  });
  const service = await startService(config, log, {
    ...serviceOptions,
    ...(driverOf ? { driver: driverOf(config) } : {}),
  });
  const cookie = await login(service.url, service.adminToken ?? "");
  return {
    service,
    url: service.url,
    cookie,
    api: trpcClient(service.url, cookie),
    instance,
    dataDir,
    async close() {
      await service.close();
      await removeInstance(instance);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Services started one after another, or side by side, on one data folder and container label. */
export interface SharedPlace {
  instance: string;
  start(
    env?: Record<string, string>,
  ): Promise<{ service: RunningService; api: TRPCClient<AppRouter>; cookie: string }>;
  stop(service: RunningService): Promise<void>;
  /** Closes the services still running and removes what they made. */
  close(): Promise<void>;
}

/**
 * One database and one instance label for several services: a service restarted on the same data,
 * or two instances of it sharing one database. `env` applies to each, before `start`'s own.
 */
export function sharedPlace(
  env: Record<string, string> = {},
  log: (line: string) => void = () => undefined,
): SharedPlace {
  const instance = newInstance();
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-shared-"));
  const running: RunningService[] = [];
  let token = "";
  return {
    instance,
    async start(more = {}) {
      const config = testServiceConfig(instance, dataDir, { ...env, ...more });
      const service = await startService(config, log);
      running.push(service);
      // The admin token is printed at the first start only.
      token ||= service.adminToken ?? "";
      const cookie = await login(service.url, token);
      return { service, api: trpcClient(service.url, cookie), cookie };
    },
    async stop(service) {
      running.splice(running.indexOf(service), 1);
      await service.close();
    },
    async close() {
      for (const service of running.splice(0)) await service.close();
      await removeInstance(instance);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls until the workspace reaches `status` (or fails with its error detail). */
export async function waitForStatus(
  api: TRPCClient<AppRouter>,
  workspaceId: string,
  status: Workspace["status"],
  timeoutMs = 60_000,
): Promise<Workspace> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ws = await api.workspace.get.query({ workspaceId });
    if (ws.status === status) return ws;
    if (ws.status === "error") throw new Error(`workspace failed: ${ws.detail}`);
    if (Date.now() > deadline) throw new Error(`workspace still ${ws.status} after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** Runs a command in the workspace as `coder` (as the service's execs do): its exit code and output. */
export async function execIn(
  instance: string,
  workspaceId: string,
  cmd: string[],
): Promise<{ code: number; out: string }> {
  return outputOf(await instanceDriver(instance).exec(workspaceId, cmd));
}

/** A terminal WebSocket client that collects the screen bytes it receives and acks them. */
export async function openTerminal(
  url: string,
  cookie: string,
  workspaceId: string,
  name: string,
): Promise<{
  ws: WebSocket;
  output: () => string;
  send: (text: string) => void;
  waitFor: (re: RegExp, ms?: number) => Promise<void>;
}> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/terminal/${workspaceId}/${name}`, {
    headers: { cookie, origin: url },
  });
  let text = "";
  ws.on("message", (data: Buffer, isBinary: boolean) => {
    if (!isBinary) return;
    text += data.toString("utf8");
    ws.send(JSON.stringify({ type: "ack", bytes: data.length }));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ type: "resize", cols: 120, rows: 30 }));
  return {
    ws,
    output: () => text,
    send: (t) => ws.send(Buffer.from(t), { binary: true }),
    async waitFor(re, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (!re.test(text)) {
        if (Date.now() > deadline)
          throw new Error(`terminal never showed ${re}; it shows:\n${text.slice(-2000)}`);
        await sleep(50);
      }
    },
  };
}

const repo = path.resolve(import.meta.dirname, "../../../..");

/**
 * Starts the real service entry point as its own process (to kill it) and waits for its URL. The
 * sources run through tsx, with .txt/.md loaded as text the way the bundle loads them.
 */
export function spawnService(
  env: Record<string, string>,
  /** Node's own flags for the service process (`--cpu-prof`, …). */
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; url: string; token?: string }> {
  const hooks = "./packages/tools/bin/register.mjs";
  const child = spawn(process.execPath, [...nodeArgs, "--import", hooks, "apps/sandbox/src/main.ts"], {
    cwd: repo,
    env: { ...process.env, ...TEST_SERVICE_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    let started = false;
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      // Once started, its log is only drained (a full pipe would stall the service), not kept.
      if (started) return;
      out += chunk.toString();
      const url = out.match(/running at (http:\/\/\S+)/)?.[1];
      if (url && /login link/.test(out)) {
        clearTimeout(timer);
        started = true;
        resolve({ child, url, token: out.match(/admin login token[^:]*: (\S+)/)?.[1] });
        out = "";
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`service exited with ${code}:\n${out}`)));
  });
}
