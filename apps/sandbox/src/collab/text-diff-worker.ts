/**
 * The worker thread behind textEditsOffThread (text-diff-thread.ts): diffs texts away from the
 * service's event loop. Answers each DiffRequest with a DiffAnswer.
 */
import { parentPort } from "node:worker_threads";
import { type TextEdit, textEdits } from "./text-diff";

export interface DiffRequest {
  id: number;
  from: string;
  to: string;
}

export type DiffAnswer = { id: number; edits: TextEdit[] } | { id: number; error: string };

parentPort?.on("message", ({ id, from, to }: DiffRequest) => {
  let answer: DiffAnswer;
  try {
    answer = { id, edits: textEdits(from, to) };
  } catch (error) {
    answer = { id, error: (error as Error).message };
  }
  parentPort?.postMessage(answer);
});
