import { z } from "zod";
import { uploadId } from "./import";
import { workspaceId } from "./workspace";

/**
 * A path inside the workspace, relative to /workspace ("." is the root). The daemon resolves it on
 * the real path and refuses anything that leaves the workspace; this schema only rejects what can
 * never be valid so the error reaches the person early and readably.
 */
export const workspacePath = z
  .string()
  .min(1, "a path is required")
  .max(4096, "a path is at most 4096 characters")
  .refine((p) => !p.includes("\0"), "a path cannot contain a NUL character");

export const fileEntry = z.object({
  name: z.string(),
  path: z.string(),
  isDir: z.boolean(),
  isSymlink: z.boolean(),
  size: z.number(),
  mtimeMs: z.number(),
  /** Children, present for folders listed deeper than one level. */
  get children() {
    return z.array(fileEntry).optional();
  },
});
export type FileEntry = z.infer<typeof fileEntry>;

export const treeInput = z.object({
  workspaceId,
  path: workspacePath.default("."),
  depth: z.number().int().min(1).max(8).default(1),
});

export const treeResult = z.object({ path: z.string(), entries: z.array(fileEntry), truncated: z.boolean() });
export type TreeResult = z.infer<typeof treeResult>;

export const readInput = z.object({ workspaceId, path: workspacePath });

/** Files above this size are not sent to the editor; it says so instead. */
export const MAX_EDITOR_FILE_BYTES = 5 * 1024 * 1024;

export const readResult = z.object({
  path: z.string(),
  size: z.number(),
  mtimeMs: z.number(),
  /** Opaque token of the version read; send it back with `write` to detect a concurrent change. */
  version: z.string(),
  kind: z.enum(["text", "binary", "too_large"]),
  /** UTF-8 text when `kind` is `text`, otherwise empty. */
  content: z.string(),
});
export type ReadResult = z.infer<typeof readResult>;

export const writeInput = z.object({
  workspaceId,
  path: workspacePath,
  content: z.string().max(MAX_EDITOR_FILE_BYTES, "the file is larger than 5 MB"),
  /** When given, the write fails with CONFLICT if the file changed since that version was read. */
  expectedVersion: z.string().optional(),
});

export const writeResult = z.object({
  path: z.string(),
  size: z.number(),
  mtimeMs: z.number(),
  version: z.string(),
});
export type WriteResult = z.infer<typeof writeResult>;

export const renameInput = z.object({ workspaceId, from: workspacePath, to: workspacePath });
export const deleteInput = z.object({ workspaceId, path: workspacePath });
export const mkdirInput = z.object({ workspaceId, path: workspacePath });

export const fileChange = z.object({
  type: z.enum(["add", "addDir", "change", "unlink", "unlinkDir"]),
  path: z.string(),
});
export type FileChange = z.infer<typeof fileChange>;

/** One event of `files.changes`. `resync: true` means changes may have been missed: reload the tree. */
export const fileChangeBatch = z.object({ changes: z.array(fileChange), resync: z.boolean() });
export type FileChangeBatch = z.infer<typeof fileChangeBatch>;

export const changesInput = z.object({
  workspaceId,
  /** Set by the SSE link on reconnect (tracked() ids). */
  lastEventId: z.string().nullish(),
});

/** `files.unpack`: an upload unpacked into a folder of a running workspace (a drop on the file tree). */
export const unpackInput = z.object({ workspaceId, uploadId, path: workspacePath.default(".") });
