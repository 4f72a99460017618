import { spawnSync } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DAEMON_PROTOCOL_VERSION, type DaemonNotifications, type DaemonRequests } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleDaemonInto, connectToProcess } from "./testing/process";

// The bundle on the workspace image's own Node 18, as the service runs it: stdio of a container
// process, no network, read-only root filesystem, the image's non-root user.
const IMAGE = process.env.CODER_IMAGE ?? "coder-workspace:latest";
let dir: string;
let bundle: string;

let container: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "coder-daemon-docker-"));
  bundle = await bundleDaemonInto(dir);
  await chmod(dir, 0o755);
  await chmod(bundle, 0o644);
  const run = spawnSync(
    "docker",
    [
      ...["run", "-d", "--rm", "--network", "none", "--read-only", "--tmpfs", "/tmp"],
      ...["--tmpfs", "/workspace:uid=1000,gid=1000", "-v", `${bundle}:/opt/coder/daemon.mjs:ro`],
      ...[IMAGE, "sleep", "infinity"],
    ],
    { encoding: "utf8" },
  );
  if (run.status !== 0) throw new Error(`docker run failed: ${run.stderr}`);
  container = run.stdout.trim();
});
afterAll(async () => {
  if (container) spawnSync("docker", ["rm", "-f", container]);
  await rm(dir, { recursive: true, force: true });
});

/** Reached as the service reaches it: `docker exec -i` into a running container. */
const connectToDaemon = () =>
  connectToProcess("docker", [
    ...["exec", "-i", "-u", "coder", container],
    ...["node", "/opt/coder/daemon.mjs", "--root", "/workspace"],
  ]);

/** Runs a shell command in the container as the workspace's user; its exit status. */
const shell = (command: string) =>
  spawnSync("docker", ["exec", "-u", "coder", container, "sh", "-c", command], { encoding: "utf8" }).status;

describe("the daemon in a workspace container", () => {
  it("serves files, watches them and runs tools on the image's Node, and ends with its stdin", async () => {
    const { client, hangUp } = connectToDaemon();
    const changes: string[] = [];
    const added = new Promise<void>((resolve) =>
      client.onNotification("fs.changed", (params: DaemonNotifications["fs.changed"]) => {
        changes.push(...params.changes.map((c) => `${c.type} ${c.path}`));
        if (changes.includes("add src/app.py")) resolve();
      }),
    );

    const ping = await client.sendRequest<DaemonRequests["ping"]["result"]>("ping", {});
    expect(ping).toMatchObject({ version: DAEMON_PROTOCOL_VERSION, root: "/workspace" });
    await client.sendRequest("fs.write", { path: "src/app.py", content: "print('hi')\n" });
    await added;
    const run = await client.sendRequest<DaemonRequests["tools.execute"]["result"]>("tools.execute", {
      tool: "bash",
      args: { command: "python3 src/app.py && node --version && id -un" },
      sessionId: "s",
      callId: "c",
    });
    expect(run.result).toMatchObject({ ok: true });
    expect(String(run.result.stdout)).toMatch(/^hi\nv18\.\d+\.\d+\ncoder\n$/);
    const outside = client.sendRequest("fs.read", { path: "/etc/passwd", maxBytes: 100 });
    await expect(outside).rejects.toThrow(/outside the workspace/);

    expect(await hangUp()).toBe(0);
  });

  it("refuses to write through a dangling symlink that leads outside the workspace", async () => {
    // What a cloned repository may hold: links to files that do not exist yet, outside.
    expect(
      shell("ln -s /tmp/planted.sh /workspace/ghost.sh && ln -s /tmp/planted /workspace/ghost-dir"),
    ).toBe(0);
    const { client, hangUp } = connectToDaemon();
    const write = (path: string) =>
      client.sendRequest<DaemonRequests["tools.execute"]["result"]>("tools.execute", {
        tool: "write",
        args: { path, content: "echo pwned\n" },
        sessionId: "s",
        callId: `write-${path}`,
      });
    for (const path of ["ghost.sh", "ghost-dir/run.sh"]) {
      const { result } = await write(path);
      expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    }
    const editor = client.sendRequest("fs.write", { path: "ghost.sh", content: "echo pwned\n" });
    await expect(editor).rejects.toThrow(/outside the workspace/);
    expect(shell("test -e /tmp/planted.sh || test -e /tmp/planted")).toBe(1);
    expect(await hangUp()).toBe(0);
  });
});
