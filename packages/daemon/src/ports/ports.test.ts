import { readFileSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestDaemon, type TestDaemon } from "../testing/harness";

let daemon: TestDaemon;
beforeEach(async () => {
  daemon = await startTestDaemon({ ports: true });
});
afterEach(() => daemon.stop());

/** This process's name as the kernel keeps it: what the daemon must report for its sockets. */
const ownName = () => readFileSync("/proc/self/comm", "utf8").trim();

function listen(host: string): Promise<net.Server> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, host, () => resolve(server));
  });
}

describe("the listening ports of the workspace", () => {
  it("reports a port as it opens and as it closes, with the name of the process that listens", async () => {
    const server = await listen("127.0.0.1");
    const { port } = server.address() as AddressInfo;
    await daemon.until("ports.changed", ({ ports }) =>
      ports.some((p) => p.port === port && p.process === ownName()),
    );
    expect((await daemon.request("ports.list", {})).ports).toContainEqual({ port, process: ownName() });
    // A notification after this one, without the port.
    const after = daemon.notifications.length;
    server.close();
    await daemon.until(
      "ports.changed",
      (params) =>
        daemon.notifications.findIndex((n) => n.params === params) >= after &&
        !params.ports.some((p) => p.port === port),
    );
  });

  it("reports wildcard and IPv6 loopback binds", async () => {
    const wildcard = await listen("::");
    const loopback6 = await listen("::1");
    const ports = (await daemon.request("ports.list", {})).ports.map((p) => p.port);
    expect(ports).toContain((wildcard.address() as AddressInfo).port);
    expect(ports).toContain((loopback6.address() as AddressInfo).port);
    wildcard.close();
    loopback6.close();
  });
});
