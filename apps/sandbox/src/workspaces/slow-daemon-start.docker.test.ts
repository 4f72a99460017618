// A busy machine (load average 20–30 on 2 cores) starts a workspace's daemon slowly: the create must
// wait for it with word of what it waits for, not end in an error after the first ping's deadline.
// The daemon's start is held back deterministically: its command waits for a file in the workspace.
import { containerLayout, type Workspace } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execIn, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import { WAITING_FOR_DAEMON } from "./workspace-service";

/** Starts the real daemon once /tmp/go exists; exits with code 3 once /tmp/die does. */
const HELD_DAEMON = `while :; do
  if [ -e /tmp/go ]; then exec ${containerLayout.daemonNode} ${containerLayout.daemonScript} --root ${containerLayout.workspace}; fi
  if [ -e /tmp/die ]; then echo 'the daemon gave up' >&2; exit 3; fi
  sleep 0.05
done`;

const PING_MS = 1000;

describe("a workspace whose daemon is slow to start (a busy machine)", () => {
  let t: TestService;

  beforeAll(async () => {
    const daemon = {
      command: ["sh", "-c", HELD_DAEMON],
      timeouts: { pingMs: PING_MS, startMs: 120_000, requestMs: 5000 },
    };
    t = await startTestService({ daemon }, { CODER_WARM_POOL: "0" });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function shown(id: string): Promise<Workspace> {
    const workspace = (await t.api.workspace.list.query()).find((w) => w.id === id);
    if (!workspace) throw new Error(`workspace ${id} is not listed`);
    return workspace;
  }

  /** Creates a workspace and waits until it says it waits for its daemon, past the ping's deadline. */
  async function waitingWorkspace(name: string): Promise<string> {
    const { id } = await t.api.workspace.create.mutate({ name });
    await until(
      async () => {
        const workspace = await shown(id);
        if (workspace.status === "error") throw new Error(`the create failed: ${workspace.detail}`);
        return workspace.detail === WAITING_FOR_DAEMON;
      },
      `workspace ${name} says it waits for its daemon`,
      60_000,
    );
    // Told only once the first ping's deadline passed: before the fix, the create ended in an error here.
    expect(await shown(id)).toMatchObject({ status: "creating", detail: WAITING_FOR_DAEMON });
    return id;
  }

  it("is created once the daemon answers, saying meanwhile that it waits for the workspace", async () => {
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
