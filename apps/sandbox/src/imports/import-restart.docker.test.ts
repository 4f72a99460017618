import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runningJobConfigs } from "../docker/testing/engine-probes";
import {
  execIn,
  login,
  newInstance,
  removeInstance,
  requireImage,
  spawnService,
  trpcClient,
  waitForStatus,
} from "../testing/harness";
import { until } from "../testing/until";
import { type GitServer, makeRepository, startGitServer } from "./testing/git-server";

describe("a service killed while it clones a repository", () => {
  const instance = newInstance();
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-import-restart-"));
  let server: GitServer;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    // Served slowly: the clone is still running when the service is killed.
    server = await startGitServer((root) =>
      makeRepository(root, "sizable", { "blob.bin": randomBytes(8 << 20) }),
    );
  });
  afterAll(async () => {
    child?.kill("SIGKILL");
    await removeInstance(instance);
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("leaves no clone running unwatched, shows the import as cut off, and the retry fills the workspace", async () => {
    const env = {
      CODER_IMAGE: requireImage(),
      CODER_DATA_DIR: dataDir,
      CODER_PORT: "0",
      CODER_INSTANCE: instance,
      CODER_EGRESS_ALLOW: server.allow,
    };
    const first = await spawnService(env);
    child = first.child;
    const api = trpcClient(first.url, await login(first.url, first.token ?? ""));
    const { id } = await api.workspace.create.mutate({
      name: "cut off",
      source: { type: "git", url: `${server.url}/slow/sizable.git`, submodules: false },
    });
    await until(
      async () => {
        const ws = await api.workspace.get.query({ workspaceId: id });
        return ws.import?.progress?.phase === "receiving";
      },
      "the clone's progress",
      60_000,
    );
    expect(await runningJobConfigs(instance)).toHaveLength(1);

    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    // The job sees its stdin end with the service and stops; the engine removes it.
    await until(async () => (await runningJobConfigs(instance)).length === 0, "the clone job's end", 10_000);

    const second = await spawnService(env);
    child = second.child;
    const api2 = trpcClient(second.url, await login(second.url, first.token ?? ""));
    const ws = await api2.workspace.get.query({ workspaceId: id });
    expect(ws.status).toBe("error");
    expect(ws.detail).toBe(
      "the import was interrupted when the service stopped; retry it or delete the workspace",
    );
    expect(ws.import?.state).toBe("failed");

    await api2.workspace.retryImport.mutate({ workspaceId: id });
    await waitForStatus(api2, id, "running", 120_000);
    expect((await execIn(instance, id, ["cat", "README.md"])).out).toBe("second\n");
  });
});
