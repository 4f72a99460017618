// The daemon's entry: `node /opt/coder/daemon.mjs --root /workspace`, started by the sandbox
// service through `docker exec -i`. It speaks JSON-RPC on stdin/stdout and exits when stdin ends.
import { Console } from "node:console";
import path from "node:path";
import { containerLayout } from "@coder/protocol";
import { checkServers, createDefaultRegistry, stopLspServers } from "@coder/tools";
import { parseDaemonArgs, USAGE, UsageError } from "./args";
import { runCredentialHelper } from "./git/credential-helper";
import { createDaemonServer } from "./server";

const log = (message: string) => process.stderr.write(`[coder-daemon] ${message}\n`);

// stdout carries the protocol: a stray console.log anywhere (a tool, a library) would corrupt it.
globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });

process.on("unhandledRejection", (reason) => {
  log(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`);
});

async function main(): Promise<number> {
  // git's credential helper of a terminal or the agent's bash (the image's /etc/gitconfig).
  if (process.argv[2] === "git-credential") {
    await runCredentialHelper(
      process.argv[3],
      containerLayout.gitCredentialSocket,
      process.stdin,
      process.stdout,
    );
    return 0;
  }
  let args: ReturnType<typeof parseDaemonArgs>;
  try {
    args = parseDaemonArgs(process.argv.slice(2), process.cwd());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    log(`${error.message}\n${USAGE}`);
    return 2;
  }
  // Tool descriptions name the workspace as the model should see it (/workspace in a container).
  const toolsConfig = { workspaceRoot: path.resolve(args.root), ...args.toolsConfig };
  const server = await createDaemonServer({
    root: args.root,
    input: process.stdin,
    output: process.stdout,
    runner: createDefaultRegistry(toolsConfig),
    spillDir: args.spillDir,
    ...(args.snapshotDir ? { snapshotDir: args.snapshotDir } : {}),
    toolsConfig,
    gitCredentialSocket: containerLayout.gitCredentialSocket,
    log,
  });
  log(`serving ${server.root} (pid ${process.pid})`);
  // Once per start, without blocking: a missing language server is one log line, not a failure.
  void checkServers(log, toolsConfig).catch((error: Error) => log(`[LSP] ${error.message}`));
  await server.closed;
  await stopLspServers();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
