// Test support: what an egress workspace on the test swarm tries to reach. A further network namespace,
// linked to both nodes, holds a public address (the internet's stand-in) and a private one (a machine
// on the operator's network); both are routed only inside the test's namespaces, so no packet leaves
// this machine. The namespace is named like a node (`csw<pid>-3`): a killed run's is removed with its
// swarm's leftovers (test-swarm.ts).
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import type { TestSwarm, TestSwarmNode } from "./test-swarm";

const run = promisify(execFile);

/** Public: outside every range of net/non-public-ranges.ts, so only the firewall's own rules decide. */
export const PUBLIC_ADDRESS = "100.128.0.1";
/** Private: what the egress rules must refuse. */
export const PRIVATE_ADDRESS = "10.233.0.1";
/** Every listener of the stand-in, and one in each node's namespace, answers on this port. */
export const LISTENER_PORT = 8080;

/** Answers every HTTP request with the address it was dialled at. */
const LISTENER = `
require("node:http")
  .createServer((req, res) => res.end("hello from " + req.socket.localAddress + "\\n"))
  .listen(${LISTENER_PORT}, "0.0.0.0", () => console.log("ready"));
`;

export interface InternetStandIn {
  remove(): Promise<void>;
}

async function ip(...args: string[]): Promise<void> {
  await run("ip", args);
}

/** A process of this machine in a namespace's network (`nsenter --net`: ip netns exec remounts /sys). */
export function inNamespace(namespace: string, cmd: string[]): ChildProcess {
  return spawn("nsenter", [`--net=/run/netns/${namespace}`, ...cmd], {
    stdio: ["ignore", "pipe", "inherit"],
  });
}

async function listenIn(namespace: string): Promise<ChildProcess> {
  const child = inNamespace(namespace, [process.execPath, "-e", LISTENER]);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the listener in ${namespace} exited with ${code}`)));
  });
  return child;
}

/**
 * Links the stand-in to both nodes (a /30 each, after the three test-swarm.ts uses), routes its two
 * addresses from each node through that link, and starts a listener in it and in each node's
 * namespace (on every address of the node: the node as its workspaces must not reach it).
 */
export async function startInternetStandIn(swarm: TestSwarm): Promise<InternetStandIn> {
  const nodes: TestSwarmNode[] = [swarm.manager, swarm.worker];
  const name = swarm.manager.name.replace(/-\d$/, "-3");
  const net = swarm.manager.address.split(".").slice(0, 3).join(".");
  const listeners: ChildProcess[] = [];
  const remove = async () => {
    for (const child of listeners) child.kill("SIGKILL");
    await ip("netns", "del", name).catch(() => undefined);
  };
  try {
    await ip("netns", "add", name);
    await ip("-n", name, "link", "set", "lo", "up");
    for (const address of [PUBLIC_ADDRESS, PRIVATE_ADDRESS])
      await ip("-n", name, "addr", "add", `${address}/32`, "dev", "lo");
    for (const [i, node] of nodes.entries()) {
      const [nodeSide, standInSide] = [`${net}.${13 + 4 * i}`, `${net}.${14 + 4 * i}`];
      const link = `node${i + 1}`;
      await ip(
        "-n",
        node.name,
        "link",
        "add",
        "internet",
        "type",
        "veth",
        "peer",
        "name",
        link,
        "netns",
        name,
      );
      await ip("-n", node.name, "addr", "add", `${nodeSide}/30`, "dev", "internet");
      await ip("-n", node.name, "link", "set", "internet", "up");
      await ip("-n", name, "addr", "add", `${standInSide}/30`, "dev", link);
      await ip("-n", name, "link", "set", link, "up");
      for (const address of [PUBLIC_ADDRESS, PRIVATE_ADDRESS])
        await ip("-n", node.name, "route", "add", `${address}/32`, "via", standInSide);
    }
    for (const namespace of [name, ...nodes.map((n) => n.name)]) listeners.push(await listenIn(namespace));
  } catch (err) {
    await remove();
    throw err;
  }
  return { remove };
}
