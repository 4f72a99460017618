import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService, waitForStatus } from "../testing/harness";

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
});
