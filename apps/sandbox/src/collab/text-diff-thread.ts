import { Worker } from "node:worker_threads";
import { commonEnds, type TextEdit, textEdits } from "./text-diff";
import type { DiffAnswer, DiffRequest } from "./text-diff-worker";

/**
 * The diff worker's file: beside this module when it runs from source (tests, which give the
 * worker the repository's TypeScript loader), or beside the service's bundle, which
 * scripts/lib/bundle.mjs builds it into as `text-diff-worker.mjs`.
 */
function startWorker(): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  return fromSource
    ? new Worker(new URL("./text-diff-worker.ts", import.meta.url), {
        execArgv: ["--import", new URL("../../../../packages/tools/bin/register.mjs", import.meta.url).href],
      })
    : new Worker(new URL("./text-diff-worker.mjs", import.meta.url));
}

/** UTF-16 units each side up to which a replacement is diffed on the loop, without the thread. */
const SMALL_CHANGE = 256;
/** What a small diff on the loop may take; past it, what it did not reach is replaced whole. */
const SMALL_CHANGE_BUDGET_MS = 5;

type Waiting = { resolve(edits: TextEdit[]): void; reject(error: Error): void };

let worker: Worker | undefined;
const waiting = new Map<number, Waiting>();
let nextId = 0;

function diffWorker(): Worker {
  if (worker) return worker;
  const started = startWorker();
  const fail = (error: Error) => {
    if (worker === started) worker = undefined;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  started.on("message", (answer: DiffAnswer) => {
    const request = waiting.get(answer.id);
    waiting.delete(answer.id);
    if ("error" in answer) request?.reject(new Error(answer.error));
    else request?.resolve(answer.edits);
    // An idle worker never keeps the process alive.
    if (waiting.size === 0) started.unref();
  });
  started.on("error", fail);
  started.on("exit", (code) => fail(new Error(`the diff worker exited with ${code}`)));
  worker = started;
  return started;
}

/**
 * textEdits (text-diff.ts) on a worker thread shared by the whole service: tokenizing and diffing
 * megabyte texts take the service's event loop tens of milliseconds at a time, more on a busy
 * machine, and a workspace process can make it diff as often as it rewrites a file. Only copying
 * the texts there and the edits back stays on the loop. A worker that dies fails the diffs it
 * held (their merges fail like a failed read) and is started again for the next one.
 */
export async function textEditsOffThread(from: string, to: string): Promise<TextEdit[]> {
  // Only what lies between the common start and end goes to the thread: a one-line change of a
  // megabyte file copies that line, not the file twice.
  const { head, tail } = commonEnds(from, to);
  const removed = from.slice(head, from.length - tail);
  const inserted = to.slice(head, to.length - tail);
  // Only an insertion or a removal is one edit as it stands. A replacement, however small, is
  // diffed: taken whole, it would bring back text that someone deleted meanwhile inside it (the
  // merge applies the disk's change against the baseline, and a run replaced whole re-inserts what
  // it kept). A small one is diffed here, within a short budget: the thread's round trip (long on
  // a busy machine) would cost more.
  if (!removed || !inserted)
    return removed || inserted ? [{ at: head, remove: removed.length, insert: inserted }] : [];
  if (removed.length <= SMALL_CHANGE && inserted.length <= SMALL_CHANGE)
    return textEdits(removed, inserted, SMALL_CHANGE_BUDGET_MS).map((edit) => ({
      ...edit,
      at: edit.at + head,
    }));
  const id = nextId++;
  const edits = await new Promise<TextEdit[]>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    const thread = diffWorker();
    thread.ref();
    thread.postMessage({ id, from: removed, to: inserted } satisfies DiffRequest);
  });
  for (const edit of edits) edit.at += head;
  return edits;
}
