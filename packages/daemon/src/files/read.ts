import { readFile, stat } from "node:fs/promises";
import { DaemonErrorCode, type ReadResult } from "@coder/protocol";
import type { DaemonHandler } from "../rpc/dispatch";
import { daemonError, toResponseError } from "../rpc/errors";
import { resolveTarget } from "./paths";
import { decodeText } from "./text";
import { fileFacts } from "./version";

/**
 * Reads a file for the editor. A file above `maxBytes` is answered as `too_large` from its size
 * alone; one that is not UTF-8 text as `binary`. Neither carries content.
 */
export async function readWorkspaceFile(root: string, input: string, maxBytes: number): Promise<ReadResult> {
  const { abs, display } = await resolveTarget(root, input);
  try {
    const st = await stat(abs, { bigint: true });
    if (st.isDirectory()) throw daemonError(DaemonErrorCode.IsDirectory, `${display} is a folder`);
    // Opening a FIFO or device would block or never end; only regular files are read.
    if (!st.isFile()) throw daemonError(DaemonErrorCode.Io, `${display} is not a regular file`);
    const facts = fileFacts(st);
    if (facts.size > maxBytes) return { path: display, ...facts, kind: "too_large", content: "" };
    const text = decodeText(await readFile(abs));
    return text === undefined
      ? { path: display, ...facts, kind: "binary", content: "" }
      : { path: display, ...facts, kind: "text", content: text };
  } catch (error) {
    throw toResponseError(error, display);
  }
}

export const readMethod =
  (root: string): DaemonHandler<"fs.read"> =>
  (params) =>
    readWorkspaceFile(root, params.path, params.maxBytes);
