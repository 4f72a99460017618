import { createHash } from "node:crypto";

// What the test and an editor process (editor-process.ts) say to each other, one JSON line each way.

/** A text's SHA-256 (hex), as `sha256sum` prints it: how texts are compared across processes. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export interface EditorOptions {
  url: string;
  cookie: string;
  workspaceId: string;
  files: string[];
}

/**
 * Types `text` at `at` into `file`, then waits until every file in `expect` holds the text of
 * that length and SHA-256 (hex) and the service said `file` is saved since the typing.
 */
export interface EditorRequest {
  id: number;
  file: string;
  at: number;
  text: string;
  expect: Record<string, ExpectedText>;
  timeoutMs: number;
}

/** A text as `expectedText` (editor-process-handle.ts) describes it. */
export interface ExpectedText {
  length: number;
  sha256: string;
}

export interface EditorAnswer {
  id: number;
  error?: string;
}
