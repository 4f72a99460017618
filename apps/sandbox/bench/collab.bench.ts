import { COLLAB_TEXT } from "@coder/protocol";
import * as Y from "yjs";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { DiskMerge } from "../src/collab/disk-merge";
import { collabSocket, openDocument, until } from "../src/collab/testing/collab-client";
import { execIn, startTestService, type TestService, waitForStatus } from "../src/testing/harness";

const now = () => performance.now();
const KEYSTROKES = 300;
const MERGES = 100;
/** Merges before the measured ones, so the JIT has compiled the diff and Yjs paths. */
const WARM_UP = 10;
const LINES = 10_000;

/**
 * Keystroke latency through the service: one client inserts a character into its Y.Doc (as
 * y-codemirror does for a key), the update goes over its WebSocket to Hocuspocus in the service
 * and out to the other client; the clock stops when the other client's text has it.
 */
async function keystrokes(t: TestService, workspaceId: string): Promise<number[]> {
  await execIn(t.instance, workspaceId, ["sh", "-c", "printf 'typing\\n' > keys.txt"]);
  const sockets = [collabSocket(t.url, t.cookie, workspaceId), collabSocket(t.url, t.cookie, workspaceId)];
  const [a, b] = sockets.map((s) => openDocument(s, "keys.txt"));
  if (!a || !b) throw new Error("two clients");
  await until(() => a.provider.isSynced && b.provider.isSynced, "both clients synced");
  const text = b.doc.getText(COLLAB_TEXT);
  const samples: number[] = [];
  for (let i = 0; i < KEYSTROKES; i++) {
    const arrived = new Promise<number>((resolve) => {
      const seen = () => {
        text.unobserve(seen);
        resolve(now());
      };
      text.observe(seen);
    });
    const start = now();
    a.doc.getText(COLLAB_TEXT).insert(0, "x");
    samples.push((await arrived) - start);
    // A person types a few keys a second at most; this is faster still, but not a flood.
    await new Promise((r) => setTimeout(r, 10));
  }
  // A provider's awareness keeps a timer running until the provider is destroyed.
  for (const doc of [a, b]) doc.provider.destroy();
  for (const s of sockets) s.destroy();
  return samples;
}

/** The service's cost of merging a one-line disk change into a live 10 000-line document with typing pending. */
function diskMerges(): number[] {
  const lines = Array.from({ length: LINES }, (_, i) => `    const value${i} = compute(${i}); // line ${i}`);
  let disk = `${lines.join("\n")}\n`;
  const live = new Y.Doc();
  const merge = new DiskMerge(live, disk);
  const samples: number[] = [];
  for (let i = 0; i < WARM_UP + MERGES; i++) {
    // Someone typed near the top since the last write-back…
    live.getText(COLLAB_TEXT).insert(10 + i, "t");
    // …while a command changed one line far below.
    const at = 1000 + ((i * 97) % (LINES - 2000));
    lines[at] = `    const value${at} = recompute(${at}, ${i}); // changed`;
    disk = `${lines.join("\n")}\n`;
    const start = now();
    merge.diskChanged(disk);
    if (i >= WARM_UP) samples.push(now() - start);
  }
  merge.destroy();
  return samples;
}

export async function run(): Promise<BenchResult[]> {
  const merges = diskMerges();
  const t = await startTestService();
  try {
    const { id } = await t.api.workspace.create.mutate({ name: "bench collab" });
    await waitForStatus(t.api, id, "running");
    const keys = await keystrokes(t, id);
    const p50 = percentile(keys, 50);
    const mergeP50 = percentile(merges, 50);
    return [
      {
        name: "keystroke in one client → in the other, through the service (Yjs over WebSockets) p50",
        value: round(p50, 2),
        unit: "ms",
        target: "≤ 30 ms",
        pass: p50 <= 30,
      },
      { name: "keystroke → other client p99", value: round(percentile(keys, 99), 2), unit: "ms" },
      {
        name: "merge a disk change into a live 10 000-line document (typing pending) p50",
        value: round(mergeP50, 2),
        unit: "ms",
        target: "≤ 20 ms",
        pass: mergeP50 <= 20,
      },
      { name: "disk merge, 10 000 lines p99", value: round(percentile(merges, 99), 2), unit: "ms" },
    ];
  } finally {
    await t.close();
  }
}
