import { COLLAB_TEXT } from "@coder/protocol";
import * as Y from "yjs";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { daemonWorkspace, type LiveFiles } from "../src/agent/workspace/workspace-port";
import { collabSocket, type OpenDocument, openDocument } from "../src/collab/testing/collab-client";
import { execIn, joinShare, startTestService, waitForStatus } from "../src/testing/harness";
import { until } from "../src/testing/until";

const FILE = "big.ts";
/** The same text in a file nobody has open: the agent's edit without a live document, for comparison. */
const CLOSED = "closed.ts";
const CLOSED_EDITS = 20;
const LINES = 10_000;
/** Edits per block; blocks alternate typing and quiet, so both see the same moments of a noisy machine. */
const BLOCK = 10;
const BLOCKS_EACH = 3;
/** A person's typing cadence, per client. */
const KEY_EVERY_MS = 50;
/** Between two of the agent's edits, as a model would think between calls. */
const EDIT_EVERY_MS = 150;

const now = () => performance.now();
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Types `char` at the end of line `n` (0-based) of `doc` every few milliseconds until stopped. */
function keepTyping(doc: OpenDocument, n: number, char: string): () => void {
  const text = doc.doc.getText(COLLAB_TEXT);
  const content = text.toString();
  let end = -1;
  for (let i = 0; i <= n; i++) end = content.indexOf("\n", end + 1);
  // Tied to the line's newline: typed characters go before it, so this stays the line's end.
  const lineEnd = Y.createRelativePositionFromTypeIndex(text, end);
  const timer = setInterval(() => {
    const at = Y.createAbsolutePositionFromRelativePosition(lineEnd, doc.doc);
    if (at) text.insert(at.index, char);
  }, KEY_EVERY_MS);
  return () => clearInterval(timer);
}

/** Resolves at the time `doc` receives an insertion holding `marker`. */
function arrival(doc: OpenDocument, marker: string): Promise<number> {
  const text = doc.doc.getText(COLLAB_TEXT);
  return new Promise((resolve) => {
    const seen = (event: Y.YTextEvent) => {
      const inserted = event.delta.some((d) => typeof d.insert === "string" && d.insert.includes("agent"));
      if (!inserted || !text.toString().includes(marker)) return;
      text.unobserve(seen);
      resolve(now());
    };
    text.observe(seen);
  });
}

type Stages = Record<"flush" | "edit" | "merge", number[]>;

/** The p50 of each stage of "agent edit → both other editors", typing and quiet side by side. */
function stageResults(stages: { typing: Stages; quiet: Stages }): BenchResult[] {
  const names: Record<keyof Stages, string> = {
    flush: "write-back of the typing before the call",
    edit: "the daemon's edit",
    merge: "reading the file and merging it → both other editors",
  };
  return (Object.keys(names) as (keyof Stages)[]).map((stage) => ({
    name: `agent edit stage: ${names[stage]}, two clients typing, p50`,
    value: round(percentile(stages.typing[stage], 50), 2),
    unit: "ms",
    notes: `nobody typing: ${round(percentile(stages.quiet[stage], 50), 2)} ms`,
  }));
}

/**
 * The agent's `edit` of one line of a live 10 000-line document, from the tool call to the change
 * in both people's editors (Yjs clients over the service's WebSockets), in blocks while both people
 * type on lines 1 and 2 and in blocks while nobody types.
 */
export async function run(): Promise<BenchResult[]> {
  const t = await startTestService();
  const sockets: ReturnType<typeof collabSocket>[] = [];
  const people: OpenDocument[] = [];
  try {
    const { id } = await t.api.workspace.create.mutate({ name: "bench agent beside typing" });
    await waitForStatus(t.api, id, "running");
    const link = await t.api.share.create.mutate({ workspaceId: id, role: "editor" });
    const editorCookie = await joinShare(t.url, link.url, "Ed");
    const written = await execIn(t.instance, id, [
      "sh",
      "-c",
      `awk 'BEGIN { for (i = 0; i < ${LINES}; i++) printf "    const value%d = compute(%d); // line %d\\n", i, i, i }' > ${FILE} && cp ${FILE} ${CLOSED}`,
    ]);
    if (written.code !== 0) throw new Error(`writing ${FILE} failed: ${written.out}`);
    for (const cookie of [t.cookie, editorCookie]) {
      const socket = collabSocket(t.url, cookie, id);
      sockets.push(socket);
      people.push(openDocument(socket, FILE));
    }
    const [owner, editor] = people as [OpenDocument, OpenDocument];
    await until(() => people.every((p) => p.provider.isSynced && p.text().length > 0), "both synced", 60_000);

    // The stages of one call, as the tool call meets the live documents: the write-back of typing
    // before it, the daemon's edit, then reading the file and merging it into the documents.
    let flushed = 0;
    let edited = 0;
    const live: LiveFiles = {
      flush: async (workspaceId, paths) => {
        await t.service.collab.flush(workspaceId, paths);
        flushed = now();
      },
      agentChanging: (workspaceId, paths, prompter) => {
        const merge = t.service.collab.agentChanging(workspaceId, paths, prompter);
        return () => {
          edited = now();
          return merge();
        };
      },
    };
    const workspace = daemonWorkspace(t.service.daemons, id, live);
    let calls = 0;
    const call = async (tool: string, args: Record<string, unknown>) => {
      calls++;
      const done = await workspace.executeTool(
        {
          tool,
          args,
          sessionId: "ses_bench",
          callId: `call_${calls}`,
          agent: "build",
          messageId: "msg_bench",
        },
        () => undefined,
        new AbortController().signal,
      );
      if (!done.result.ok) throw new Error(`${tool} failed: ${done.output}`);
    };
    const diskHoldsDocument = async () => {
      const { out } = await execIn(t.instance, id, ["cat", FILE]);
      return out === owner.text() && out === editor.text();
    };
    await call("read", { path: FILE });

    const samples = { typing: [] as number[], quiet: [] as number[] };
    const stages = {
      typing: { flush: [] as number[], edit: [] as number[], merge: [] as number[] },
      quiet: { flush: [] as number[], edit: [] as number[], merge: [] as number[] },
    };
    const callTimes = { typing: [] as number[], quiet: [] as number[] };
    let edit = 0;
    for (let block = 0; block < 2 * BLOCKS_EACH; block++) {
      const typing = block % 2 === 0;
      const stops = typing ? [keepTyping(owner, 0, "o"), keepTyping(editor, 1, "e")] : [];
      if (typing) await pause(KEY_EVERY_MS * 4);
      for (let i = 0; i < BLOCK; i++, edit++) {
        const n = 1000 + edit * 97;
        const marker = `/* agent ${edit} */`;
        const seen = Promise.all(people.map((p) => arrival(p, marker)));
        const start = now();
        await call("edit", {
          path: FILE,
          old_string: `value${n} = compute(${n});`,
          new_string: `value${n} = compute(${n}) ${marker};`,
        });
        const called = now() - start;
        const lastArrival = Math.max(...(await seen));
        const arrived = lastArrival - start;
        (typing ? samples.typing : samples.quiet).push(arrived);
        const stage = typing ? stages.typing : stages.quiet;
        stage.flush.push(flushed - start);
        stage.edit.push(edited - flushed);
        stage.merge.push(lastArrival - edited);
        (typing ? callTimes.typing : callTimes.quiet).push(called);
        await pause(EDIT_EVERY_MS);
      }
      for (const stop of stops) stop();
      // Nobody types in the next block: the last keys are written back first.
      await until(() => people.every((p) => !p.provider.hasUnsyncedChanges), "typing sent", 30_000);
      await until(diskHoldsDocument, "the disk holds the document", 60_000);
    }
    await call("read", { path: CLOSED });
    const closedTimes: number[] = [];
    for (let i = 0; i < CLOSED_EDITS; i++) {
      const n = 1000 + i * 97;
      const start = now();
      await call("edit", {
        path: CLOSED,
        old_string: `value${n} = compute(${n});`,
        new_string: `value${n} = compute(${n}) /* agent ${i} */;`,
      });
      closedTimes.push(now() - start);
    }
    const typedP50 = percentile(samples.typing, 50);
    const quietP50 = percentile(samples.quiet, 50);
    const expectedLines = owner.text().split("\n").length - 1;
    if (expectedLines !== LINES) throw new Error(`the document has ${expectedLines} lines, not ${LINES}`);
    return [
      {
        name: "agent edit of a live 10 000-line document → both other editors, two clients typing, p50",
        value: round(typedP50, 2),
        unit: "ms",
        target: "≤ 100 ms",
        ratio: round(typedP50 / quietP50, 2),
        pass: typedP50 <= 100,
        notes: "ratio: typing p50 / nobody typing p50, same run",
      },
      {
        name: "agent edit → both other editors, two clients typing, p99",
        value: round(percentile(samples.typing, 99), 2),
        unit: "ms",
      },
      {
        name: "agent edit → both other editors, nobody typing, p50",
        value: round(quietP50, 2),
        unit: "ms",
      },
      {
        name: "agent edit → both other editors, nobody typing, p99",
        value: round(percentile(samples.quiet, 99), 2),
        unit: "ms",
      },
      ...stageResults(stages),
      {
        name: "agent edit tool call (flush, daemon edit, merge), two clients typing, p50",
        value: round(percentile(callTimes.typing, 50), 2),
        unit: "ms",
        ratio: round(percentile(callTimes.typing, 50) / percentile(callTimes.quiet, 50), 2),
        notes: "ratio: typing / nobody typing",
      },
      {
        name: "agent edit tool call, nobody typing, p50",
        value: round(percentile(callTimes.quiet, 50), 2),
        unit: "ms",
        ratio: round(percentile(callTimes.quiet, 50) / percentile(closedTimes, 50), 2),
        notes: "ratio: live document, nobody typing / the same file with no live document",
      },
      {
        name: "agent edit tool call on the same 10 000-line file with no live document, p50",
        value: round(percentile(closedTimes, 50), 2),
        unit: "ms",
      },
    ];
  } finally {
    // A provider's awareness keeps a timer running until the provider is destroyed.
    for (const person of people) person.provider.destroy();
    for (const socket of sockets) socket.destroy();
    await t.close();
  }
}
