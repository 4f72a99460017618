import { readFile, stat } from "node:fs/promises";
import { type BytesResult, DaemonErrorCode } from "@coder/protocol";
import type { DaemonHandler } from "../rpc/dispatch";
import { daemonError, toResponseError } from "../rpc/errors";
import { resolveTarget } from "./paths";

/** A file's bytes, base64 (for the image viewer); only its size when larger than `maxBytes`. */
export async function readBytes(root: string, input: string, maxBytes: number): Promise<BytesResult> {
  const { abs, display } = await resolveTarget(root, input);
  try {
    const st = await stat(abs);
    if (!st.isFile()) throw daemonError(DaemonErrorCode.Io, `${display} is not a regular file`);
    const tooLarge = { path: display, kind: "too_large" as const, base64: "" };
    if (st.size > maxBytes) return { ...tooLarge, size: st.size };
    const bytes = await readFile(abs);
    // It may have grown since the stat.
    if (bytes.length > maxBytes) return { ...tooLarge, size: bytes.length };
    return { path: display, size: bytes.length, kind: "bytes", base64: bytes.toString("base64") };
  } catch (error) {
    throw toResponseError(error, display);
  }
}

export const readBytesMethod =
  (root: string): DaemonHandler<"fs.readBytes"> =>
  (params) =>
    readBytes(root, params.path, params.maxBytes);
