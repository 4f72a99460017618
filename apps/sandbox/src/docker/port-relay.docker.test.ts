import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Duplex, PassThrough } from "node:stream";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TUNNELS_PER_WORKSPACE, PortStreams } from "../daemon/port-streams";
import type { AttachedProcess, WorkspaceDriver } from "../driver/workspace-driver";
import { APP_PORT, startApp as startAppIn } from "../preview/testing/start-app";
import { execIn, instanceDriver, type TestService, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import { containerName } from "./container-spec";
import { RELAY_MAX_CONNECTIONS } from "./port-relay";
import {
  expectOnlyItsOwnLoopback,
  getThrough,
  restartBehindTheServicesBack,
  serviceWithTwoWorkspaces,
} from "./testing/tunnel-checks";

const docker = new Docker();

/** This file's service and drivers use relay containers, as a service in a container (Compose) does. */
const CONTAINER_RELAY = { CODER_PREVIEW_RELAY: "container" };
const containerRelayDriver = (instance: string, env: Record<string, string> = {}) =>
  instanceDriver(instance, { ...CONTAINER_RELAY, ...env });

describe("the preview relay container beside a workspace", () => {
  let t: TestService;
  let driver: WorkspaceDriver;
  let streams: PortStreams;
  let id: string;
  let other: string;
  let app: AttachedProcess;
  const relayName = (workspace: string) => `${containerName(t.instance, workspace)}-relay`;
  const relay = (workspace = id) => docker.getContainer(relayName(workspace)).inspect();
  const startApp = (workspace: string, port = APP_PORT) => startAppIn(t.api, driver, workspace, port);

  beforeAll(async () => {
    ({ t, id, other } = await serviceWithTwoWorkspaces("relay", CONTAINER_RELAY));
    driver = containerRelayDriver(t.instance);
    streams = new PortStreams(driver);
    app = await startApp(id);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it("reaches the workspace's app over a unix socket to a hardened relay container", async () => {
    const tunnel = await streams.open(id, APP_PORT);
    // A socket of its own, not the engine's exec stream.
    expect(tunnel).toBeInstanceOf(net.Socket);
    expect(await getThrough(tunnel)).toMatch(/^HTTP\/1\.1 200[\s\S]*hello/);
    const info = await relay();
    const workspace = await docker.getContainer(containerName(t.instance, id)).inspect();
    expect(info.HostConfig.NetworkMode).toBe(`container:${workspace.Id}`);
    expect(info.Config.User).toBe("1000:1000");
    expect(info.HostConfig.CapDrop).toEqual(["ALL"]);
    expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    expect(info.HostConfig.SecurityOpt).toContain("no-new-privileges:true");
    expect(info.HostConfig.PidsLimit).toBeGreaterThan(0);
    expect(info.HostConfig.Memory).toBeGreaterThan(0);
    expect(info.Mounts.map((m) => m.Type)).toEqual(["bind"]);
  });

  it("says once in the service log why a workspace's previews go through exec when its relay cannot start", async () => {
    // The relays' folder is a file: no relay can start for the workspace, which has none yet.
    const scratch = await mkdtemp(path.join(tmpdir(), "tunnels-"));
    const notAFolder = path.join(scratch, "tunnels");
    await writeFile(notAFolder, "");
    const lines: string[] = [];
    const driverWithoutRelay = containerRelayDriver(t.instance, { CODER_TUNNEL_DIR: notAFolder });
    const fallingBack = new PortStreams(driverWithoutRelay, (line) => lines.push(line));
    const port = APP_PORT + 2;
    const otherApp = await startApp(other, port);
    try {
      for (let i = 0; i < 3; i++) {
        const tunnel = await fallingBack.open(other, port);
        expect(tunnel).not.toBeInstanceOf(net.Socket);
        expect(await getThrough(tunnel)).toMatch(/hello/);
      }
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(other);
      expect(lines[0]).toMatch(/docker exec[\s\S]*ENOTDIR/);
    } finally {
      await otherApp.close();
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it("has no network but the workspace's: neither the service's ports on the host nor another workspace's app", async () => {
    await streams.open(id, APP_PORT).then((tunnel) => tunnel.destroy());
    const { stdout } = await runInRelay(
      relayName(id),
      "console.log(Object.keys(require('os').networkInterfaces()).join(' '))",
    );
    expect(stdout.trim()).toBe("lo");
    // The service listens on the host's loopback: the relay's loopback is the workspace's.
    await expectOnlyItsOwnLoopback(t, driver, streams, id, other);
  });

  it("keeps its socket folder out of the workspace container: not mounted, not found, not reachable", async () => {
    await streams.open(id, APP_PORT).then((tunnel) => tunnel.destroy());
    const folder = (await relay()).Mounts[0]?.Source ?? "";
    expect(folder).not.toBe("");
    const workspace = await docker.getContainer(containerName(t.instance, id)).inspect();
    expect(workspace.Mounts.map((m) => m.Source)).not.toContain(folder);
    const { out } = await execIn(t.instance, id, [
      "sh",
      "-c",
      `ls ${folder} 2>&1; find / -xdev -name relay.sock 2>/dev/null; echo done`,
    ]);
    expect(out).toMatch(/No such file or directory/);
    expect(out).not.toMatch(/relay\.sock/);
  });

  it("is found again by a restarted service instead of being replaced", async () => {
    await streams.open(id, APP_PORT).then((tunnel) => tunnel.destroy());
    const before = await relay();
    // A new driver knows nothing of the relay, as after a restart of the service.
    const restarted = new PortStreams(containerRelayDriver(t.instance));
    expect(await getThrough(await restarted.open(id, APP_PORT))).toMatch(/hello/);
    expect((await relay()).Id).toBe(before.Id);
  });

  it("never sends a browser's bytes to whatever the relay's socket was swapped for", async () => {
    await streams.open(id, APP_PORT).then((tunnel) => tunnel.destroy());
    const socket = path.join((await relay()).Mounts[0]?.Source ?? "", "relay.sock");
    // A listener that answers like an engine would, and records what it is sent.
    const heard: string[] = [];
    const decoy = net.createServer((c) => {
      c.on("data", (chunk) => heard.push(chunk.toString()));
      c.on("error", () => undefined);
      c.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    });
    const decoyPath = path.join(tmpdir(), `decoy-${process.pid}.sock`);
    await new Promise<void>((resolve) => decoy.listen(decoyPath, resolve));
    try {
      await rm(socket);
      await symlink(decoyPath, socket);
      const tunnel = await driver.portConnection?.(id, APP_PORT).catch((error: Error) => error);
      expect(tunnel).toBeInstanceOf(Error);
      expect(heard.join("")).toMatch(/^(3000\n)+$/);
    } finally {
      decoy.close();
      await rm(decoyPath, { force: true });
      // The next connection needs a relay that listens again.
      await docker.getContainer(relayName(id)).restart({ t: 1 });
    }
  });

  it(`refuses the ${MAX_TUNNELS_PER_WORKSPACE + 1}th connection at once with a plain message, and takes new ones once some close`, async () => {
    const open: Duplex[] = [];
    try {
      for (let i = 0; i < MAX_TUNNELS_PER_WORKSPACE; i++) open.push(await streams.open(id, APP_PORT));
      await expect(streams.open(id, APP_PORT)).rejects.toThrow(
        `this workspace already has ${MAX_TUNNELS_PER_WORKSPACE} preview connections open`,
      );
      open.pop()?.destroy();
      await until(() => streams.count(id) < MAX_TUNNELS_PER_WORKSPACE, "a connection is released");
      open.push(await streams.open(id, APP_PORT));
    } finally {
      for (const tunnel of open) tunnel.destroy();
      await until(() => streams.count(id) === 0, "every connection is released");
    }
  });

  it(`refuses the connection past the relay's bound (${RELAY_MAX_CONNECTIONS}) and serves the next one after one closes`, async () => {
    // Straight to the relay, past the service's lower bound: as several instances of the service would.
    // A refused connection: the relay closes it without a byte (null), or before the port is sent (an error).
    const connect = async () => (await driver.portConnection?.(id, APP_PORT).catch(() => null)) ?? null;
    const open: Duplex[] = [];
    try {
      // Filled up to its bound (a probe that just closed may not have reached the relay yet).
      await until(async () => {
        const tunnel = await connect();
        if (tunnel) open.push(tunnel);
        return open.length === RELAY_MAX_CONNECTIONS;
      }, `${RELAY_MAX_CONNECTIONS} connections are open`);
      expect(await connect()).toBeNull();
      open.pop()?.destroy();
      await until(async () => {
        const next = await connect();
        if (next) open.push(next);
        return next !== null;
      }, "the relay takes a connection again");
      expect(await getThrough(open.pop() as Duplex)).toMatch(/hello/);
    } finally {
      for (const tunnel of open) tunnel.destroy();
    }
  }, 60_000);

  it("is gone once the workspace stops and comes back, in the new network namespace, after it starts again", async () => {
    await streams.open(id, APP_PORT).then((tunnel) => tunnel.destroy());
    const before = await relay();
    await app.close();
    await t.api.workspace.stop.mutate({ workspaceId: id });
    await waitForStatus(t.api, id, "stopped");
    await expect(relay()).rejects.toMatchObject({ statusCode: 404 });
    await t.api.workspace.start.mutate({ workspaceId: id });
    await waitForStatus(t.api, id, "running");
    app = await startApp(id);
    const tunnel = await streams.open(id, APP_PORT);
    expect(tunnel).toBeInstanceOf(net.Socket);
    expect(await getThrough(tunnel)).toMatch(/hello/);
    const after = await relay();
    expect(after.Id).not.toBe(before.Id);
    expect(after.State.Running).toBe(true);
  }, 120_000);

  it("follows a workspace restarted behind the service's back", async () => {
    await streams.open(id, APP_PORT).then((tunnel) => tunnel.destroy());
    const before = await relay();
    await app.close();
    app = await restartBehindTheServicesBack(t, driver, streams, id);
    const tunnel = await streams.open(id, APP_PORT);
    expect(tunnel).toBeInstanceOf(net.Socket);
    expect(await getThrough(tunnel)).toMatch(/hello/);
    expect((await relay()).Id).not.toBe(before.Id);
  }, 120_000);
});

/** Runs a node one-liner in the relay container (as its user): its output. */
async function runInRelay(name: string, script: string): Promise<{ stdout: string }> {
  const exec = await docker.getContainer(name).exec({
    Cmd: ["/opt/coder/node", "-e", script],
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await exec.start({ hijack: true, stdin: false });
  const chunks: Buffer[] = [];
  const out = new PassThrough();
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  docker.modem.demuxStream(stream, out, out);
  await new Promise((resolve) => stream.once("end", resolve));
  return { stdout: Buffer.concat(chunks).toString() };
}
