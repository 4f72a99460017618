// A workspace attacks the service through its daemon's streams: the service must stay small, drop
// that one connection (logged once), reconnect on the next call, and no other workspace notices.
import { setTimeout as sleep } from "node:timers/promises";

import { containerLayout } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  execIn,
  startTestService,
  type TestService,
  waitForStatus,
} from "../../apps/sandbox/src/testing/harness";
import { keepCalling } from "../support/keep-calling";
import { rssGrowthDuring } from "../support/memory";

const MB = 1024 * 1024;
const GB = 1024 * MB;
/** The target for the service's growth while a workspace floods it with 1 GB. */
const MAX_GROWTH_MB = 64;
const STDERR_LINE_BYTES = 100 * MB;
const SHORT_LINES = 3_000_000;

/**
 * The daemon command the service runs: the real daemon, unless a process in the workspace left a
 * note in /tmp/daemon-mode, in which case this start misbehaves (the note is used up). Starting
 * through `sh` changes nothing for the daemon: `exec` makes it the same process as usual. The
 * stderr flood comes before the daemon starts: node makes its stdio non-blocking, which would
 * cut short a flood that shares it.
 */
const DAEMON_WRAPPER = `mode=$(cat /tmp/daemon-mode 2>/dev/null); rm -f /tmp/daemon-mode
case "$mode" in
  huge-frame) printf 'Content-Length: 99999999999\\r\\n\\r\\n'; exec head -c ${GB} /dev/zero ;;
  no-header) exec head -c ${GB} /dev/zero ;;
  stderr) { head -c ${STDERR_LINE_BYTES} /dev/zero | tr '\\0' x; echo; yes 'a short line' | head -n ${SHORT_LINES}; } >&2 ;;
esac
exec ${containerLayout.daemonNode} ${containerLayout.daemonScript} --root ${containerLayout.workspace}`;

describe("a workspace flooding its daemon's streams", () => {
  let t: TestService;
  let a: string;
  let b: string;
  const log: string[] = [];
  const daemonLog = (id: string) => log.filter((line) => line.startsWith(`[daemon ${id}]`));

  beforeAll(async () => {
    t = await startTestService({ daemon: { command: ["sh", "-c", DAEMON_WRAPPER] } }, {}, (line) =>
      log.push(line),
    );
    a = (await t.api.workspace.create.mutate({ name: "attacker" })).id;
    b = (await t.api.workspace.create.mutate({ name: "bystander" })).id;
    await Promise.all([waitForStatus(t.api, a, "running"), waitForStatus(t.api, b, "running")]);
    await t.api.files.write.mutate({ workspaceId: b, path: "notes.txt", content: "still here\n" });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** What workspace B's owner does all along: read a file and run a command. */
  const useB = async () => {
    const [file, tool] = await Promise.all([
      t.api.files.read.query({ workspaceId: b, path: "notes.txt" }),
      t.api.tools.execute.mutate({ workspaceId: b, tool: "bash", args: { command: "echo ok" } }),
    ]);
    expect(file).toMatchObject({ kind: "text", content: "still here\n" });
    expect(tool.result.ok).toBe(true);
  };

  /** Runs `attack` while B keeps working; returns the attack's outcome and the service's growth. */
  const duringFlood = async <T>(attack: () => Promise<T>) => {
    const stopFlood = () => {
      execIn(t.instance, a, ["sh", "-c", "pkill -f '[h]ead -c'"]).catch(() => undefined);
    };
    const attacking = rssGrowthDuring(attack, { abortAboveMb: 512, onRunaway: stopFlood });
    const bCalls = await keepCalling(useB, attacking);
    const { outcome, growthMb } = await attacking;
    console.log(`service RSS growth during the flood: ${growthMb} MB`);
    expect(bCalls.filter((c) => c.status === "rejected")).toEqual([]);
    expect(bCalls.length).toBeGreaterThan(0);
    return { outcome, growthMb };
  };

  /** Ends A's daemon from inside (as any workspace process can) so the next call starts it in `mode`. */
  const nextDaemonStartIs = async (mode: string) => {
    const daemon = t.service.daemons.connection(a);
    await daemon.ensure();
    const { code } = await execIn(t.instance, a, [
      "sh",
      "-c",
      `echo ${mode} > /tmp/daemon-mode && pkill -f '[d]aemon.mjs'`,
    ]);
    expect(code).toBe(0);
    while (daemon.connected) await sleep(20);
  };

  it("refuses a workspace process that writes a huge frame into the daemon's stdout", async () => {
    await t.service.daemons.connection(a).ensure();
    const write = `pid=$(pgrep -f '[d]aemon.mjs' | head -n 1)
{ printf 'Content-Length: 99999999999\\r\\n\\r\\n'; head -c ${GB} /dev/zero; } > /proc/$pid/fd/1`;
    const { outcome, growthMb } = await duringFlood(() => execIn(t.instance, a, ["sh", "-c", write]));
    if (outcome.status !== "fulfilled") throw outcome.reason;
    expect(outcome.value.out).toMatch(/Permission denied/);
    expect(outcome.value.code).not.toBe(0);
    expect(growthMb).toBeLessThanOrEqual(MAX_GROWTH_MB);
    expect(await t.api.files.tree.query({ workspaceId: a })).toMatchObject({ entries: expect.any(Array) });
  });

  for (const [mode, why] of [
    ["huge-frame", /broke the protocol \(a message announced 99999999999 bytes, more than 32 MB\)/],
    ["no-header", /broke the protocol \(a message header ran past 8 KB without ending\)/],
  ] as const) {
    it(`drops only that daemon when it floods its stdout with 1 GB (${mode}), and reconnects`, async () => {
      await nextDaemonStartIs(mode);
      const before = daemonLog(a).length;
      const { outcome, growthMb } = await duringFlood(() => t.api.files.tree.query({ workspaceId: a }));
      expect(outcome.status).toBe("rejected");
      expect(outcome.status === "rejected" && String(outcome.reason)).toMatch(why);
      expect(growthMb).toBeLessThanOrEqual(MAX_GROWTH_MB);
      const dropped = daemonLog(a)
        .slice(before)
        .filter((line) => line.includes("connection dropped"));
      expect(dropped).toHaveLength(1);
      expect(dropped[0]).toMatch(why);
      expect(await t.api.files.tree.query({ workspaceId: a })).toMatchObject({ entries: expect.any(Array) });
      await useB();
    });
  }

  it("logs a bounded amount when the daemon floods its stderr with a 100 MB line and 3 million short ones", async () => {
    await nextDaemonStartIs("stderr");
    const before = daemonLog(a).length;
    // No memory bound here: nothing is held but one cut line, yet streaming 140 MB through the
    // engine's socket makes the allocator take a working set of its own (~40 MB, once per process)
    // that a bystander's calls add to. The bound that matters is on what is logged.
    const { outcome } = await duringFlood(() => t.api.files.tree.query({ workspaceId: a }));
    expect(outcome.status).toBe("fulfilled");
    const logged = () => daemonLog(a).slice(before);
    const longest = Math.max(...logged().map((line) => Buffer.byteLength(line)));
    expect(longest).toBeLessThanOrEqual(2200);
    expect(logged().length).toBeLessThan(200);
    expect(logged()).toContain(
      `[daemon ${a}] ${"x".repeat(2048)} … [${STDERR_LINE_BYTES - 2048} more bytes cut]`,
    );
    // Every short line is either logged or counted; the count of the last ones comes a second later.
    const accounted = () =>
      logged().reduce((sum, line) => {
        if (line.endsWith("] a short line")) return sum + 1;
        return sum + Number(/… \((\d+) lines dropped\)$/.exec(line)?.[1] ?? 0);
      }, 0);
    await vi.waitFor(() => expect(accounted()).toBe(SHORT_LINES), { timeout: 10_000 });
    const bytes = logged().reduce((sum, line) => sum + Buffer.byteLength(line), 0);
    console.log(`daemon stderr flood: ${logged().length} lines, ${bytes} bytes logged, longest ${longest}`);
    expect(await t.api.files.tree.query({ workspaceId: a })).toMatchObject({ entries: expect.any(Array) });
  });
});
