// A busy machine (load average 20–30 on 2 cores) starts a workspace's daemon slowly: the create must
// wait for it with word of what it waits for, not end in an error after the first ping's deadline.
// The daemon's start is held back deterministically: its command waits for a file in the workspace.
import type { Workspace } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { execIn, waitForStatus } from "../testing/harness";
import { useServiceWithHeldDaemons, waitsForDaemon } from "../testing/held-daemon";
import { until } from "../testing/until";
import { WAITING_FOR_DAEMON } from "./workspace-service";

describe("a workspace whose daemon is slow to start (a busy machine)", () => {
  const service = useServiceWithHeldDaemons();

  async function shown(id: string): Promise<Workspace> {
    const t = service();
    const workspace = (await t.api.workspace.list.query()).find((w) => w.id === id);
    if (!workspace) throw new Error(`workspace ${id} is not listed`);
    return workspace;
  }

  /** Creates a workspace and waits until it says it waits for its daemon, past the ping's deadline. */
  async function waitingWorkspace(name: string): Promise<string> {
    const t = service();
    const { id } = await t.api.workspace.create.mutate({ name });
    await until(
      async () => {
        const workspace = await shown(id);
        if (workspace.status === "error") throw new Error(`the create failed: ${workspace.detail}`);
        return waitsForDaemon(workspace.detail);
      },
      `workspace ${name} says it waits for its daemon`,
      60_000,
    );
    // Told only once the first ping's deadline passed: before the fix, the create ended in an error here.
    expect(await shown(id)).toMatchObject({
      status: "creating",
      detail: expect.stringMatching(new RegExp(`^${WAITING_FOR_DAEMON}: \\d+ s$`)),
    });
    return id;
  }

  it("is created once the daemon answers, saying meanwhile that it waits for the workspace", async () => {
    const t = service();
    const id = await waitingWorkspace("slow");
    await execIn(t.instance, id, ["touch", "/tmp/go"]);
    await waitForStatus(t.api, id, "running");
    expect((await shown(id)).detail).toBeUndefined();
    await t.api.files.write.mutate({ workspaceId: id, path: "here.txt", content: "works\n" });
    await expect(t.api.files.read.query({ workspaceId: id, path: "here.txt" })).resolves.toMatchObject({
      content: "works\n",
    });
  }, 120_000);

  it("ends in an error at once, with the daemon's words, when the daemon dies while it is waited for", async () => {
    const t = service();
    const id = await waitingWorkspace("dying");
    const died = Date.now();
    await execIn(t.instance, id, ["touch", "/tmp/die"]);
    await until(async () => (await shown(id)).status === "error", "the workspace shows the error", 60_000);
    // Long before the 120 s the wait could last.
    expect(Date.now() - died).toBeLessThan(30_000);
    expect((await shown(id)).detail).toBe(
      "the workspace daemon exited with code 3 before answering: the daemon gave up",
    );
  }, 120_000);
});
