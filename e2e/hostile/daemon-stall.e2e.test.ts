// A workspace stops its own daemon (SIGSTOP, as any process of the workspace's user can): calls
// must fail with a plain message instead of hanging, and the next call gets a new daemon. The
// same for a daemon that never answers its first ping.
import { setTimeout as sleep } from "node:timers/promises";

import { containerLayout } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  execIn,
  startTestService,
  type TestService,
  waitForStatus,
} from "../../apps/sandbox/src/testing/harness";

/** The real daemon, or (once, when the workspace asks in /tmp/daemon-mode) one that reads and never answers. */
const DAEMON_WRAPPER = `mode=$(cat /tmp/daemon-mode 2>/dev/null); rm -f /tmp/daemon-mode
if [ "$mode" = silent ]; then exec cat > /dev/null; fi
exec ${containerLayout.daemonNode} ${containerLayout.daemonScript} --root ${containerLayout.workspace}`;

describe("a workspace whose daemon stops answering", () => {
  let t: TestService;
  let a: string;
  let b: string;
  const log: string[] = [];

  beforeAll(async () => {
    // Shorter than the defaults (10 s ping, 60 s requests) so the test does not wait minutes.
    const daemon = {
      command: ["sh", "-c", DAEMON_WRAPPER],
      timeouts: { pingMs: 3000, startMs: 3000, requestMs: 5000 },
    };
    t = await startTestService({ daemon }, {}, (line) => log.push(line));
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
    const daemon = t.service.daemons.connection(a);
    while (daemon.connected) await sleep(50);
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
      await sleep(100);
    }
  }, 60_000);

  it("fails the call when a new daemon never answers its first ping, and the next call works", async () => {
    const daemon = t.service.daemons.connection(a);
    await daemon.ensure();
    const { code } = await execIn(t.instance, a, [
      "sh",
      "-c",
      "echo silent > /tmp/daemon-mode && pkill -f '[d]aemon.mjs'",
    ]);
    expect(code).toBe(0);
    while (daemon.connected) await sleep(20);

    await expect(t.api.files.tree.query({ workspaceId: a })).rejects.toThrow(
      "the workspace daemon did not answer within 3 s",
    );
    await expect(t.api.files.tree.query({ workspaceId: a })).resolves.toMatchObject({
      entries: expect.any(Array),
    });
  }, 60_000);
});
