import { readdir, readFile, readlink } from "node:fs/promises";
import net from "node:net";
import type { Duplex } from "node:stream";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PortStreams } from "../daemon/port-streams";
import type { AttachedProcess, WorkspaceDriver } from "../driver/workspace-driver";
import { APP_PORT, startApp as startAppIn } from "../preview/testing/start-app";
import { instanceDriver, type TestService, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import { containerName } from "./container-spec";
import {
  answersThrough,
  expectOnlyItsOwnLoopback,
  getThrough,
  restartBehindTheServicesBack,
  serviceWithTwoWorkspaces,
} from "./testing/tunnel-checks";

const docker = new Docker();

/** Everything a tunnel's far side sends until it closes. */
async function readAll(tunnel: Duplex): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of tunnel) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/** This process's children that run the relay (node under nsenter, as nobody). */
async function relayProcesses(): Promise<{ pid: number; status: string }[]> {
  const found: { pid: number; status: string }[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const status = await readFile(`/proc/${entry}/status`, "utf8").catch(() => "");
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (
      status.match(/^PPid:\s+(\d+)$/m)?.[1] === String(process.pid) &&
      cmdline.includes("process.send({ready:true})")
    ) {
      found.push({ pid: Number(entry), status });
    }
  }
  return found;
}

describe("the preview relay in a workspace's network namespace", () => {
  let t: TestService;
  let driver: WorkspaceDriver;
  let streams: PortStreams;
  let id: string;
  let other: string;
  let app: AttachedProcess;
  const workspace = (which = id) => docker.getContainer(containerName(t.instance, which)).inspect();
  /** The relays in the network namespace of the workspace's current start. */
  const relaysIn = async (which = id) => {
    const namespace = await readlink(`/proc/${(await workspace(which)).State.Pid}/ns/net`);
    const all = await relayProcesses();
    const inside = await Promise.all(
      all.map(async (relay) => (await readlink(`/proc/${relay.pid}/ns/net`).catch(() => "")) === namespace),
    );
    return all.filter((_, i) => inside[i]);
  };
  const alive = async (pid: number | undefined) =>
    (await relayProcesses()).some((relay) => relay.pid === pid);
  const startApp = (which: string, port = APP_PORT, script?: string) =>
    startAppIn(t.api, driver, which, port, script);

  beforeAll(async () => {
    ({ t, id, other } = await serviceWithTwoWorkspaces("namespace-relay"));
    // Tests run as root on the engine's host: the configured driver enters namespaces.
    driver = instanceDriver(t.instance);
    streams = new PortStreams(driver);
    app = await startApp(id);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await driver?.settle();
    await t?.close();
  });

  it("hands the service the app's own socket, with no relay container and no process between them", async () => {
    const tunnel = await streams.open(id, APP_PORT);
    expect(tunnel).toBeInstanceOf(net.Socket);
    // The service's end is the TCP connection to the app itself, in the workspace's loopback.
    expect((tunnel as net.Socket).remoteAddress).toBe("127.0.0.1");
    expect((tunnel as net.Socket).remotePort).toBe(APP_PORT);
    expect(await getThrough(tunnel)).toMatch(/^HTTP\/1\.1 200[\s\S]*hello/);
    await expect(
      docker.getContainer(`${containerName(t.instance, id)}-relay`).inspect(),
    ).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it("runs as nobody, without capabilities, in the workspace's network namespace and no other", async () => {
    await streams.open(id, APP_PORT).then((tunnel) => tunnel.destroy());
    const [relay, ...more] = await relaysIn(id);
    expect(relay).toBeDefined();
    expect(more).toEqual([]);
    expect(relay?.status).toMatch(/^Uid:\s+65534\s+65534\s+65534\s+65534$/m);
    expect(relay?.status).toMatch(/^Gid:\s+65534\s+65534\s+65534\s+65534$/m);
    expect(relay?.status).toMatch(/^Groups:\s*$/m);
    expect(relay?.status).toMatch(/^CapEff:\s+0+$/m);
    expect(await readlink(`/proc/${relay?.pid}/ns/net`)).not.toBe(await readlink("/proc/self/ns/net"));
  });

  it("reaches neither the service's ports on the host nor another workspace's app", async () => {
    await expectOnlyItsOwnLoopback(t, driver, streams, id, other);
  });

  it("loses no byte an app sends before it is asked anything", async () => {
    const port = APP_PORT + 2;
    const greeter = await startApp(
      other,
      port,
      `require("net").createServer((c)=>c.end("hello first\\n")).listen(+process.argv[1],"127.0.0.1")`,
    );
    try {
      for (let i = 0; i < 5; i++) {
        const tunnel = await streams.open(other, port);
        expect(await readAll(tunnel)).toBe("hello first\n");
      }
    } finally {
      await greeter.close();
    }
  });

  it("ends once the workspace stops, and enters the new namespace after it starts again", async () => {
    await streams.open(id, APP_PORT).then((tunnel) => tunnel.destroy());
    const [before] = await relaysIn(id);
    expect(before).toBeDefined();
    await app.close();
    // Through this test's driver, whose relay it is.
    await driver.stop(id);
    await until(async () => !(await alive(before?.pid)), "the relay ended");
    await driver.start(id);
    await waitForStatus(t.api, id, "running");
    app = await startApp(id);
    await until(() => answersThrough(streams, id), "the app answers through the relay");
    expect(await relaysIn(id)).toHaveLength(1);
  }, 120_000);

  it("follows a workspace restarted behind the service's back", async () => {
    await streams.open(id, APP_PORT).then((tunnel) => tunnel.destroy());
    const [before] = await relaysIn(id);
    await app.close();
    app = await restartBehindTheServicesBack(t, driver, streams, id);
    expect(await relaysIn(id)).toHaveLength(1);
    // The relay of the earlier start, in a namespace with nothing left in it, ended.
    await until(async () => !(await alive(before?.pid)), "the earlier relay ended");
  }, 120_000);

  it("ends its relays when the service settles", async () => {
    await streams.open(id, APP_PORT).then((tunnel) => tunnel.destroy());
    expect(await relayProcesses()).not.toEqual([]);
    await driver.settle();
    await until(async () => (await relayProcesses()).length === 0, "every relay ended");
  });
});
