// Test support: the daemon bundled the way the workspace image bundles it, run as a real process.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

// scripts/lib/bundle.mjs is plain JS without types, so it is imported by URL and typed here.
const BUNDLE_SCRIPT = new URL("../../../../scripts/lib/bundle.mjs", import.meta.url).href;
type BundleScript = { bundleDaemon(options: { outfile: string }): Promise<void> };

/** Bundles the daemon into `dir` and returns the path of daemon.mjs. */
export async function bundleDaemonInto(dir: string): Promise<string> {
  const outfile = path.join(dir, "daemon.mjs");
  const { bundleDaemon } = (await import(BUNDLE_SCRIPT)) as BundleScript;
  await bundleDaemon({ outfile });
  return outfile;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** Starts `command` (a daemon) and connects a JSON-RPC client to its stdio. */
export function connectToProcess(command: string, args: string[]) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
  const exited = exitOf(child);
  const { stdin, stdout, stderr } = child;
  if (!stdin || !stdout || !stderr) throw new Error("the daemon has no stdio");
  // Drained so a chatty daemon never blocks on a full pipe; kept for failure messages.
  let log = "";
  stderr.on("data", (chunk) => {
    log += String(chunk);
  });
  const client = createMessageConnection(new StreamMessageReader(stdout), new StreamMessageWriter(stdin));
  client.listen();
  /** What the service does when it goes away: its end of the pipe closes. */
  const hangUp = () => {
    client.dispose();
    stdin.end();
    return exited;
  };
  return { child, client, exited, hangUp, stderr: () => log };
}
