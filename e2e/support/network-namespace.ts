import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";

/** Stands in for cloud metadata: the namespace answers there too, so no test packet leaves the machine. */
export const METADATA_ADDRESS = "169.254.169.254";

export interface NetworkNamespace {
  /** The namespace's private address (in 10.0.0.0/8), reachable from the host through a veth pair. */
  address: string;
  /** TCP ports listening on every address of the namespace; each answers "hello" and closes. */
  ports: number[];
  remove(): Promise<void>;
}

const LISTENER = `
const net = require("node:net");
const ports = process.argv.slice(1).map(Number);
let ready = 0;
for (const port of ports)
  net.createServer((s) => s.on("error", () => {}).end("hello\\n")).listen(port, "0.0.0.0", () => {
    if (++ready === ports.length) console.log("ready");
  });
`;

function ip(...args: string[]): void {
  execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });
}

/**
 * A network namespace on this machine, as a test's stand-in for another machine on a private
 * network: a veth pair to the host, a random 10.x.y.2/30 address, the metadata address (routed to
 * it from the host while it exists) and TCP listeners. Needs root.
 */
export async function makeNetworkNamespace(portCount: number): Promise<NetworkNamespace> {
  const tag = randomBytes(3).toString("hex");
  const name = `coder-test-${tag}`;
  const hostSide = `ct${tag}h`;
  const routes = execFileSync("ip", ["route", "show"]).toString();
  let prefix: string;
  do prefix = `10.${randomInt(200, 250)}.${randomInt(0, 256)}`;
  while (routes.includes(`${prefix}.`));
  const address = `${prefix}.2`;
  const first = randomInt(20_000, 60_000);
  const ports = Array.from({ length: portCount }, (_, i) => first + i);
  let listener: ChildProcess | undefined;
  const remove = async () => {
    listener?.kill("SIGKILL");
    for (const args of [
      ["route", "del", `${METADATA_ADDRESS}/32`, "dev", hostSide],
      ["link", "del", hostSide],
      ["netns", "del", name],
    ]) {
      try {
        ip(...args);
      } catch {
        // already gone
      }
    }
  };
  try {
    ip("netns", "add", name);
    ip("link", "add", hostSide, "type", "veth", "peer", "name", `ct${tag}n`);
    ip("link", "set", `ct${tag}n`, "netns", name);
    ip("addr", "add", `${prefix}.1/30`, "dev", hostSide);
    ip("link", "set", hostSide, "up");
    ip("-n", name, "addr", "add", `${address}/30`, "dev", `ct${tag}n`);
    ip("-n", name, "addr", "add", `${METADATA_ADDRESS}/32`, "dev", `ct${tag}n`);
    ip("-n", name, "link", "set", `ct${tag}n`, "up");
    ip("-n", name, "link", "set", "lo", "up");
    ip("route", "add", `${METADATA_ADDRESS}/32`, "via", address, "dev", hostSide);
    const child = spawn(
      "ip",
      ["netns", "exec", name, process.execPath, "-e", LISTENER, ...ports.map(String)],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    listener = child;
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("ready")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`the namespace's listener exited with ${code}`)));
    });
  } catch (err) {
    await remove();
    throw err;
  }
  return { address, ports, remove };
}
