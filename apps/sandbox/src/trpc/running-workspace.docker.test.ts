// Calls on a workspace's files and git go straight to its daemon (runningWorkspaceProcedure); only a
// call that cannot reach it asks the workspace's state why. The person must then read that state
// ("stopped", "starting"), never a daemon or channel error, and never wait on a daemon not yet there.
// The daemon's start is held back deterministically: its command waits for a file in the workspace.
import { describe, expect, it } from "vitest";
import { execIn, waitForStatus } from "../testing/harness";
import { useServiceWithHeldDaemons, waitsForDaemon } from "../testing/held-daemon";
import { until } from "../testing/until";

/** Far below the start's patience (120 s): an answer that waits for the daemon cannot come in time. */
const ANSWER_WITHIN_MS = 20_000;

describe("calls on a workspace that is not running", () => {
  const service = useServiceWithHeldDaemons();

  /** The call's refusal, or a failure naming the call when it does not answer in time. */
  async function refusal(what: string, call: Promise<unknown>): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what} did not answer within ${ANSWER_WITHIN_MS} ms`)),
        ANSWER_WITHIN_MS,
      );
    });
    try {
      await Promise.race([call, late]);
    } catch (error) {
      return error;
    } finally {
      clearTimeout(timer);
    }
    throw new Error(`${what} was answered, not refused`);
  }

  /** A git and a files call on the workspace, each made when asked for. */
  const callsOn = (workspaceId: string) => {
    const t = service();
    return [
      ["git.status", () => t.api.git.status.query({ workspaceId })],
      ["files.tree", () => t.api.files.tree.query({ workspaceId })],
    ] as const;
  };

  /** A running workspace whose daemon was reached once, so its connection is the one a call reuses. */
  async function runningWorkspace(name: string): Promise<string> {
    const t = service();
    const { id } = await t.api.workspace.create.mutate({ name });
    await until(
      async () => waitsForDaemon((await t.api.workspace.get.query({ workspaceId: id })).detail),
      `${name} waits for its daemon`,
      60_000,
    );
    await execIn(t.instance, id, ["touch", "/tmp/go"]);
    await waitForStatus(t.api, id, "running");
    await t.api.git.status.query({ workspaceId: id });
    return id;
  }

  it("a git or files call on a stopped workspace answers that it is stopped, not a daemon error", async () => {
    const t = service();
    const id = await runningWorkspace("resting");
    await t.api.workspace.stop.mutate({ workspaceId: id });
    for (const [what, call] of callsOn(id)) {
      expect(await refusal(what, call())).toMatchObject({
        message: 'workspace "resting" is stopped; start it first',
        data: { code: "PRECONDITION_FAILED" },
      });
    }
  }, 120_000);

  it("a git or files call on a workspace being started says it is starting, and is served once it runs", async () => {
    const t = service();
    const id = await runningWorkspace("waking");
    await execIn(t.instance, id, ["rm", "/tmp/go"]);
    await t.api.workspace.stop.mutate({ workspaceId: id });
    await t.api.workspace.start.mutate({ workspaceId: id });
    await until(
      async () => waitsForDaemon((await t.api.workspace.get.query({ workspaceId: id })).detail),
      "the start waits for the daemon",
      60_000,
    );
    for (const [what, call] of callsOn(id)) {
      expect(await refusal(what, call())).toMatchObject({
        message: 'workspace "waking" is starting; try again once it runs',
        data: { code: "CONFLICT" },
      });
    }
    await execIn(t.instance, id, ["touch", "/tmp/go"]);
    await waitForStatus(t.api, id, "running");
    await expect(t.api.git.status.query({ workspaceId: id })).resolves.toBeDefined();
  }, 120_000);
});
