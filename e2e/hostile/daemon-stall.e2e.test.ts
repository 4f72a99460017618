// A workspace stops its own daemon (SIGSTOP, as any process of the workspace's user can): calls
// must fail with a plain message instead of hanging, and the next call gets a new daemon.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  execIn,
  startTestService,
  type TestService,
  waitForStatus,
} from "../../apps/sandbox/src/testing/harness";

describe("a workspace whose daemon stops answering", () => {
  let t: TestService;
  let a: string;
  let b: string;
  const log: string[] = [];

  beforeAll(async () => {
    // Shorter than the defaults (10 s ping, 60 s requests) so the test does not wait minutes.
    t = await startTestService({ daemon: { timeouts: { pingMs: 3000, requestMs: 5000 } } }, {}, (line) =>
      log.push(line),
    );
    a = (await t.api.workspace.create.mutate({ name: "stalled" })).id;
    b = (await t.api.workspace.create.mutate({ name: "bystander" })).id;
    await Promise.all([waitForStatus(t.api, a, "running"), waitForStatus(t.api, b, "running")]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("fails the call with a plain timeout message, drops the daemon, and the next call works", async () => {
    await t.api.files.write.mutate({ workspaceId: a, path: "a.txt", content: "a\n" });
    const stop = await execIn(t.instance, a, ["pkill", "-STOP", "-f", "/opt/coder/daemon.mjs"]);
    expect(stop.code).toBe(0);

    await expect(t.api.files.read.query({ workspaceId: a, path: "a.txt" })).rejects.toThrow(
      "the workspace daemon did not answer within 5 s",
    );
    await expect(t.api.files.tree.query({ workspaceId: b })).resolves.toMatchObject({
      entries: expect.any(Array),
    });

    // The failed request is followed by a ping; unanswered, it ends the connection, logged once.
    const daemon = t.service.workspaces.daemon(a);
    while (daemon.connected) await new Promise((r) => setTimeout(r, 50));
    expect(log.filter((line) => line.startsWith(`[daemon ${a}] connection dropped`))).toEqual([
      `[daemon ${a}] connection dropped: the daemon stopped answering`,
    ]);
    await expect(t.api.files.read.query({ workspaceId: a, path: "a.txt" })).resolves.toMatchObject({
      content: "a\n",
    });

    // The stopped daemon, resumed, finds its stdin closed and exits.
    await execIn(t.instance, a, ["pkill", "-CONT", "-f", "/opt/coder/daemon.mjs"]);
    for (;;) {
      const { out } = await execIn(t.instance, a, ["pgrep", "-c", "-f", "/opt/coder/daemon.mjs"]);
      if (out.trim() === "1") break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);
});
