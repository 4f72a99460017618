import { connect, createServer, type Server } from "node:net";
import { networkInterfaces } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceNetworks } from "../../apps/sandbox/src/docker/testing/engine-probes";
import { CONNECT_PROBE, connectedTargets } from "../../apps/sandbox/src/testing/connect-probe";
import {
  execIn,
  startTestService,
  type TestService,
  waitForStatus,
} from "../../apps/sandbox/src/testing/harness";
import { METADATA_ADDRESS, makeNetworkNamespace, type NetworkNamespace } from "../support/network-namespace";

/** Which of the targets a workspace could open a TCP connection to. */
async function reachable(t: TestService, workspaceId: string, targets: string[]): Promise<string[]> {
  const { out } = await execIn(t.instance, workspaceId, ["python3", "-c", CONNECT_PROBE, ...targets]);
  const lines = out.trim().split("\n");
  expect(lines, out).toHaveLength(targets.length);
  return connectedTargets(out);
}

/** Whether this test process (on the host) can open a TCP connection: the listener is up. */
function hostReaches(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3000 }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe("an egress workspace reaches the public internet only", () => {
  let plain: TestService;
  let opened: TestService;
  let namespace: NetworkNamespace;
  let hostListener: Server;
  let hostPort: number;
  const ids = { listener: "", prober: "", sealed: "", allowed: "" };

  beforeAll(async () => {
    namespace = await makeNetworkNamespace(2);
    hostListener = createServer((s) => s.on("error", () => undefined).end("host\n"));
    await new Promise<void>((resolve) => hostListener.listen(0, "0.0.0.0", resolve));
    hostPort = (hostListener.address() as { port: number }).port;
    const [openPort] = namespace.ports;
    [plain, opened] = await Promise.all([
      startTestService(),
      startTestService({}, { CODER_EGRESS_ALLOW: `${namespace.address}/32:${openPort}` }),
    ]);
    ids.listener = (await plain.api.workspace.create.mutate({ name: "listener", egress: true })).id;
    ids.prober = (await plain.api.workspace.create.mutate({ name: "prober", egress: true })).id;
    ids.sealed = (await plain.api.workspace.create.mutate({ name: "sealed", egress: false })).id;
    ids.allowed = (await opened.api.workspace.create.mutate({ name: "allowed", egress: true })).id;
    await Promise.all([
      waitForStatus(plain.api, ids.listener, "running"),
      waitForStatus(plain.api, ids.prober, "running"),
      waitForStatus(plain.api, ids.sealed, "running"),
      waitForStatus(opened.api, ids.allowed, "running"),
    ]);
  });

  afterAll(async () => {
    await Promise.all([plain?.close(), opened?.close()]);
    await namespace?.remove();
    hostListener?.close();
  });

  it("cannot reach another egress workspace at its network address", async () => {
    await execIn(plain.instance, ids.listener, [
      "sh",
      "-c",
      "nohup python3 -m http.server 8080 --bind 0.0.0.0 >/dev/null 2>&1 &",
    ]);
    // The listener answers inside its own workspace, so a refusal below is the network's doing.
    const deadline = Date.now() + 20_000;
    while ((await reachable(plain, ids.listener, ["127.0.0.1:8080"])).length === 0) {
      if (Date.now() > deadline) throw new Error("the listener in the workspace never came up");
      await sleep(200);
    }
    const [network] = Object.values(await workspaceNetworks(plain.instance, ids.listener));
    expect(await reachable(plain, ids.prober, [`${network?.IPAddress}:8080`])).toEqual([]);
  });

  it("cannot reach the host: not at the bridge gateway, not at any of its interface addresses", async () => {
    const [network] = Object.values(await workspaceNetworks(plain.instance, ids.prober));
    const hostAddresses = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === "IPv4" && !a.internal)
      .map((a) => a?.address ?? "");
    const targets = [network?.Gateway ?? "", ...hostAddresses].map((a) => `${a}:${hostPort}`);
    expect(targets.length).toBeGreaterThan(1);
    expect(await hostReaches("127.0.0.1", hostPort)).toBe(true);
    expect(await reachable(plain, ids.prober, targets)).toEqual([]);
  });

  it("cannot reach a private address on this machine, unless CODER_EGRESS_ALLOW opens that address and port", async () => {
    const [openPort, otherPort] = namespace.ports;
    const open = `${namespace.address}:${openPort}`;
    const other = `${namespace.address}:${otherPort}`;
    expect(await hostReaches(namespace.address, otherPort ?? 0)).toBe(true);
    expect(await reachable(plain, ids.prober, [open, other])).toEqual([]);
    expect(await reachable(opened, ids.allowed, [open, other])).toEqual([open]);
  });

  it("cannot reach the cloud metadata address, even with something answering there", async () => {
    const [port] = namespace.ports;
    expect(await hostReaches(METADATA_ADDRESS, port ?? 0)).toBe(true);
    // The allowed workspace's instance opened that port, but only on the namespace's 10.x address.
    expect(await reachable(plain, ids.prober, [`${METADATA_ADDRESS}:${port}`])).toEqual([]);
    expect(await reachable(opened, ids.allowed, [`${METADATA_ADDRESS}:${port}`])).toEqual([]);
  });

  it("still resolves names through Docker's DNS", async () => {
    const [network] = Object.values(await workspaceNetworks(plain.instance, ids.listener));
    const { out } = await execIn(plain.instance, ids.prober, [
      "getent",
      "hosts",
      `coder-${plain.instance}-${ids.listener}`,
    ]);
    expect(out.split(/\s+/)[0]).toBe(network?.IPAddress);
  });

  it("is on its instance's egress network, not Docker's default bridge; one without egress has only loopback", async () => {
    expect(Object.keys(await workspaceNetworks(plain.instance, ids.prober))).toEqual([
      `coder-egress-${plain.instance}`,
    ]);
    const { out } = await execIn(plain.instance, ids.sealed, ["ls", "/sys/class/net"]);
    expect(out.trim().split(/\s+/)).toEqual(["lo"]);
  });
});
