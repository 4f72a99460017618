/**
 * Where things are inside a workspace's container, defined once for the service (which makes the
 * container and runs processes in it), the daemon (which serves it) and the tools (which tell the
 * model about it). images/workspace/Dockerfile builds the image to match.
 */
export const containerLayout = {
  /** The workspace's files: a volume of its own, and the working folder of every process. */
  workspace: "/workspace",
  /** The daemon's state: a volume apart from the workspace, so its files never show there. */
  stateDir: "/var/lib/coder",
  /** The snapshot store (a git directory) under stateDir. */
  snapshotDir: "/var/lib/coder/snapshots.git",
  /** The last screen and folder of each terminal, saved when the service stops the workspace. */
  terminalStateDir: "/var/lib/coder/terminals",
  /** Where tools spill outputs cut for the model; the model `read`s them from there. */
  spillDir: "/tmp/coder-tool-output",
  /** The user every workspace process runs as: never root. */
  user: { name: "coder", uid: 1000, home: "/home/coder" },
  /**
   * The node the daemon runs on: a copy that the user may execute but not read, which makes the
   * kernel mark the daemon non-dumpable, so other processes of the user cannot open its stdio under
   * /proc/<pid>/fd or trace it.
   */
  daemonNode: "/opt/coder/node",
  /** The daemon's bundle. */
  daemonScript: "/opt/coder/daemon.mjs",
  /**
   * Where the daemon answers git run in a terminal or by the agent for a login (only the hosts the
   * owner bound): a socket in a folder of the user's alone. The image's /etc/gitconfig names the
   * helper that asks there (`daemon.mjs git-credential`).
   */
  gitCredentialSocket: "/tmp/coder-git/credential.sock",
} as const;
