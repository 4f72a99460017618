// Two service instances, each its own process (so one can be killed), on one PostgreSQL database,
// both managing the test swarm through its manager: SIGKILL of one leaves the other's people working.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../db/testing/test-database";
import {
  login,
  openTerminal,
  requireImage,
  spawnService,
  trpcClient,
  waitForStatus,
} from "../testing/harness";
import { newSwarmInstance } from "./testing/test-driver";
import { startTestSwarm, type TestSwarm } from "./testing/test-swarm";

const image = requireImage();

describe("two service instances on a swarm", () => {
  const instance = newSwarmInstance();
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-swarm-instances-"));
  const children: ChildProcess[] = [];
  let swarm: TestSwarm;

  beforeAll(async () => {
    swarm = await startTestSwarm([image]);
  });
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    // Removing the swarm removes every workspace service and volume the instances made.
    await swarm?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("SIGKILL of one instance ends no session of the other while the workspace runs on the swarm", async () => {
    const env = {
      CODER_IMAGE: image,
      CODER_DATA_DIR: dataDir,
      CODER_PORT: "0",
      CODER_INSTANCE: instance,
      CODER_DATABASE_URL: await createPostgresDatabase(),
      CODER_DRIVER: "swarm",
      DOCKER_HOST: `unix://${swarm.manager.socket}`,
      // On the manager, whose engine both instances reach (routing to other nodes is apart).
      CODER_SWARM_CONSTRAINTS: "node.role==manager",
      CODER_DISK_MB: "0",
    };
    const first = await spawnService(env);
    children.push(first.child);
    const second = await spawnService(env);
    children.push(second.child);
    const a = { url: first.url, cookie: await login(first.url, first.token ?? "") };
    const b = { url: second.url, cookie: await login(second.url, first.token ?? "") };
    const onA = trpcClient(a.url, a.cookie);
    const onB = trpcClient(b.url, b.cookie);
    const { id } = await onA.workspace.create.mutate({ name: "two-instances" });
    await waitForStatus(onA, id, "running", 120_000);

    const terminal = await openTerminal(b.url, b.cookie, id, "main");
    terminal.send("echo before-$((2+3))\r");
    await terminal.waitFor(/before-5/);

    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));

    // B's terminal, files and view of the workspace go on.
    terminal.send("echo after-$((3+4))\r");
    await terminal.waitFor(/after-7/);
    await onB.files.write.mutate({ workspaceId: id, path: "after.txt", content: "written on B\n" });
    expect((await onB.files.read.query({ workspaceId: id, path: "after.txt" })).content).toBe(
      "written on B\n",
    );
    expect((await onB.workspace.get.query({ workspaceId: id })).status).toBe("running");
    expect(terminal.ws.readyState).toBe(terminal.ws.OPEN);
    terminal.ws.close();
  });
});
