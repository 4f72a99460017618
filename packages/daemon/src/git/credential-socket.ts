import { chmod, mkdir, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { type AskCredential, serveCredentials } from "./credential-channel";

/** Connections served at once: git asks one at a time; more is someone knocking. */
const MAX_CONNECTIONS = 8;

/**
 * Answers git run in a terminal or by the agent (the image's /etc/gitconfig names our helper,
 * credential-helper.ts, which connects here): each request goes to the service without a call's
 * id, so it gets only a login the workspace's owner bound to the workspace. The folder is the
 * user's alone (0700); every process of the workspace is that user, so what it protects against
 * is other users, and what the owner bound is theirs to use, by design.
 */
export async function listenForBoundCredentials(
  socketPath: string,
  root: string,
  ask: AskCredential,
  log: (message: string) => void,
): Promise<Server> {
  const folder = path.dirname(socketPath);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
  await rm(socketPath, { force: true });
  const server = createServer((socket) => {
    socket.setTimeout(30_000, () => socket.destroy());
    // The configuration checked is the workspace repository's: a terminal's git elsewhere may differ.
    serveCredentials(socket, { requestId: null, ask }, { root, env: process.env }, log);
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  return server;
}
