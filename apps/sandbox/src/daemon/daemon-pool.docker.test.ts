import { containerLayout, type ListeningPort } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instanceDriver, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";

describe("the daemons of the workspaces", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers a file call on a stopped workspace with a sentence saying to start it, and serves it once started", async () => {
    const { id } = await t.api.workspace.create.mutate({ name: "resting" });
    await waitForStatus(t.api, id, "running");
    await t.api.files.write.mutate({ workspaceId: id, path: "note.txt", content: "kept\n" });
    await t.api.workspace.stop.mutate({ workspaceId: id });
    await expect(t.api.files.read.query({ workspaceId: id, path: "note.txt" })).rejects.toMatchObject({
      message: 'workspace "resting" is stopped; start it first',
      data: { code: "PRECONDITION_FAILED" },
    });
    // Started again, it is served by a fresh connection to its new daemon.
    await t.api.workspace.start.mutate({ workspaceId: id });
    await waitForStatus(t.api, id, "running");
    expect((await t.api.files.read.query({ workspaceId: id, path: "note.txt" })).content).toBe("kept\n");
  });

  it("keeps telling a running workspace's ports after its daemon's connection dropped on its own, without anyone calling it", async () => {
    const { id } = await t.api.workspace.create.mutate({ name: "dropped" });
    await waitForStatus(t.api, id, "running");
    const seen: ListeningPort[][] = [];
    const stop = t.service.daemons.onPortsChanged((workspaceId, ports) => {
      if (workspaceId === id) seen.push(ports);
    });
    const driver = instanceDriver(t.instance);
    try {
      expect(await t.api.preview.list.query({ workspaceId: id })).toMatchObject({ ports: [] });
      // The daemon the service talks to dies (as one that stopped answering is dropped).
      const kill = await driver.exec(id, ["pkill", "-f", containerLayout.daemonScript]);
      await kill.exited;
      await until(async () => !t.service.daemons.connection(id).connected, "the connection drops");
      const app = await driver.exec(id, ["node", "-e", "require('http').createServer().listen(4100)"]);
      try {
        await until(
          async () => seen.some((ports) => ports.some((p) => p.port === 4100)),
          "port 4100 is told",
        );
      } finally {
        await app.close();
      }
    } finally {
      stop();
    }
  });
});
