import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A socket in front of the real Docker engine that passes every request on, except those whose
 * request line matches `hold`: those it keeps, so the engine never answers them (what a stuck
 * engine does to one request while it still answers others). `held` counts them; `release` passes
 * them on at last, and every later request at once (the engine was slow, not stuck), until `stall`
 * holds those matching `hold` (or another pattern) again.
 */
export async function stallingEngine(hold: RegExp, engine = "/var/run/docker.sock") {
  const dir = mkdtempSync(path.join(tmpdir(), "coder-stalling-engine-"));
  const socketPath = path.join(dir, "docker.sock");
  const connections = new Set<net.Socket>();
  let held = 0;
  /** What each held connection sent since its held request: passed on by `release`. */
  const holding = new Map<net.Socket, Buffer[]>();
  let stalling: RegExp | undefined = hold;
  const server = net.createServer((client) => {
    const upstream = net.connect(engine);
    connections.add(client).add(upstream);
    client.on("data", (chunk: Buffer) => {
      const kept = holding.get(upstream);
      if (kept) return void kept.push(chunk);
      const line = chunk.toString("latin1").split("\r\n", 1)[0] ?? "";
      if (stalling?.test(line)) {
        holding.set(upstream, [chunk]);
        held++;
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      holding.delete(upstream);
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
    stall(pattern = hold) {
      stalling = pattern;
    },
    release() {
      stalling = undefined;
      for (const [upstream, chunks] of holding) for (const chunk of chunks) upstream.write(chunk);
      holding.clear();
    },
    close() {
      for (const socket of connections) socket.destroy();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
