import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import {
  type EditorAnswer,
  type EditorOptions,
  type EditorRequest,
  type ExpectedText,
  sha256,
} from "./editor-protocol";

const repo = path.resolve(import.meta.dirname, "../../../../..");

/** What an editor process checks a document's text against (computed here, once). */
export function expectedText(text: string): ExpectedText {
  return { length: text.length, sha256: sha256(text) };
}

/** A tab in its own process (see editor-process.ts). */
export interface EditorProcess {
  /** Types, then resolves once the documents hold what `request.expect` says; rejects on timeout. */
  type(request: Omit<EditorRequest, "id">): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a tab process with `options.files` open; resolves once they are synced. */
export async function startEditorProcess(options: EditorOptions): Promise<EditorProcess> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "./packages/tools/bin/register.mjs",
      "apps/sandbox/src/collab/testing/editor-process.ts",
      JSON.stringify(options),
    ],
    { cwd: repo, stdio: ["pipe", "pipe", "inherit"] },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const waiting = new Map<number, (answer: EditorAnswer) => void>();
  let ready: () => void = () => undefined;
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    void exited.then((code) => {
      const error = `the editor process exited with ${code}`;
      for (const [id, answer] of waiting) answer({ id, error });
      reject(new Error(error));
    });
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line) as EditorAnswer | { ready: true };
    if ("ready" in message) ready();
    else waiting.get(message.id)?.(message);
  });
  await started;
  let nextId = 0;
  return {
    async type(request) {
      const id = nextId++;
      const answer = await new Promise<EditorAnswer>((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ id, ...request } satisfies EditorRequest)}\n`);
      });
      waiting.delete(id);
      if (answer.error) throw new Error(answer.error);
    },
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}
