import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A socket in front of the real Docker engine that passes every request on, except those whose
 * request line matches `hold`: those it keeps, so the engine never answers them (what a stuck
 * engine does to one request while it still answers others). `held` counts them.
 */
export async function stallingEngine(hold: RegExp, engine = "/var/run/docker.sock") {
  const dir = mkdtempSync(path.join(tmpdir(), "coder-stalling-engine-"));
  const socketPath = path.join(dir, "docker.sock");
  const connections = new Set<net.Socket>();
  let held = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(engine);
    connections.add(client).add(upstream);
    let holding = false;
    client.on("data", (chunk: Buffer) => {
      if (holding) return;
      const line = chunk.toString("latin1").split("\r\n", 1)[0] ?? "";
      if (hold.test(line)) {
        holding = true;
        held++;
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  server.listen(socketPath);
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    socketPath,
    held: () => held,
    close() {
      for (const socket of connections) socket.destroy();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
