import { readFile } from "node:fs/promises";
import { type ListeningPort, MAX_LISTENING_PORTS } from "@coder/protocol";
import { type ListeningSocket, parseListeningSockets } from "./proc-net-tcp";
import { socketOwners } from "./socket-owners";

/** How often the listening sockets are read: two small files, cheap enough every second. */
export const PORT_POLL_MS = 1000;

export interface PortWatcher {
  /** The ports listening now (read afresh). */
  list(): Promise<ListeningPort[]>;
  close(): void;
}

async function listeningSockets(proc: string): Promise<ListeningSocket[]> {
  const tables = await Promise.all(
    ["net/tcp", "net/tcp6"].map((file) => readFile(`${proc}/${file}`, "utf8").catch(() => "")),
  );
  return tables.flatMap(parseListeningSockets);
}

/**
 * Watches the TCP ports something listens on in this container (loopback and wildcard binds, IPv4
 * and IPv6) by polling /proc/net/tcp{,6}, and calls `changed` with the whole list whenever a port
 * opened or closed. The process names are looked up only for sockets not seen before.
 */
export function watchPorts(
  changed: (ports: ListeningPort[]) => void,
  options: { proc?: string; intervalMs?: number; log?: (line: string) => void } = {},
): PortWatcher {
  const proc = options.proc ?? "/proc";
  let names = new Map<string, string | null>();
  let last = "[]";

  const list = async (): Promise<ListeningPort[]> => {
    const sockets = await listeningSockets(proc);
    const unknown = new Set(sockets.map((s) => s.inode).filter((inode) => !names.has(inode)));
    const found = await socketOwners(unknown, proc);
    const next = new Map<string, string | null>();
    for (const { inode } of sockets) next.set(inode, names.get(inode) ?? found.get(inode) ?? null);
    names = next;
    const byPort = new Map<number, string | null>();
    for (const { port, inode } of sockets) {
      if (!byPort.get(port)) byPort.set(port, names.get(inode) ?? null);
    }
    return [...byPort]
      .sort(([a], [b]) => a - b)
      .slice(0, MAX_LISTENING_PORTS)
      .map(([port, process]) => ({ port, process: process || null }));
  };

  let polling = false;
  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      const ports = await list();
      const text = JSON.stringify(ports);
      if (text !== last) {
        last = text;
        changed(ports);
      }
    } catch (error) {
      options.log?.(`ports: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      polling = false;
    }
  };
  const timer = setInterval(() => void poll(), options.intervalMs ?? PORT_POLL_MS);
  timer.unref();
  void poll();
  return { list, close: () => clearInterval(timer) };
}
