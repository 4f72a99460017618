import { z } from "zod";
import { uploadId } from "./import";
import { workspaceId } from "./workspace";

/** The longest path the service and the daemon pass around (PATH_MAX). */
export const MAX_PATH_CHARS = 4096;

/**
 * A path inside the workspace, relative to /workspace ("." is the root). The daemon resolves it on
 * the real path and refuses anything that leaves the workspace; this schema only rejects what can
 * never be valid so the error reaches the person early and readably.
 */
export const workspacePath = z
  .string()
  .min(1, "a path is required")
  .max(MAX_PATH_CHARS, "a path is at most 4096 characters")
  .refine((p) => !p.includes("\0"), "a path cannot contain a NUL character");

/** A path the daemon answers with: any text within bounds ("." is the root). */
export const answeredPath = z.string().max(MAX_PATH_CHARS);
/** A file's version token (mtime and size), opaque to everyone but the daemon. */
export const fileVersion = z.string().max(200);

export const fileEntry = z.object({
  /** NAME_MAX is 255 bytes, so never more characters. */
  name: z.string().max(255),
  path: answeredPath,
  isDir: z.boolean(),
  isSymlink: z.boolean(),
  size: z.number().nonnegative(),
  mtimeMs: z.number(),
  /** Children, present for folders listed deeper than one level. */
  get children() {
    return z.array(fileEntry).max(MAX_TREE_ENTRIES).optional();
  },
});
export type FileEntry = z.infer<typeof fileEntry>;

export const treeInput = z.object({
  workspaceId,
  path: workspacePath.default("."),
  depth: z.number().int().min(1).max(8).default(1),
});

/** At most this many entries per `fs.tree` answer, all levels together (the tree is virtualised). */
export const MAX_TREE_ENTRIES = 50_000;

const entryCount = (entries: readonly FileEntry[]): number =>
  entries.reduce((n, entry) => n + 1 + entryCount(entry.children ?? []), 0);

export const treeResult = z.object({
  path: answeredPath,
  entries: z
    .array(fileEntry)
    .max(MAX_TREE_ENTRIES)
    .refine((entries) => entryCount(entries) <= MAX_TREE_ENTRIES, `at most ${MAX_TREE_ENTRIES} entries`),
  truncated: z.boolean(),
});
export type TreeResult = z.infer<typeof treeResult>;

export const readInput = z.object({ workspaceId, path: workspacePath });

/** Files above this size are not sent to the editor; it says so instead. */
export const MAX_EDITOR_FILE_BYTES = 5 * 1024 * 1024;

export const readResult = z.object({
  path: answeredPath,
  size: z.number().nonnegative(),
  mtimeMs: z.number(),
  /** Opaque token of the version read; send it back with `write` to detect a concurrent change. */
  version: fileVersion,
  kind: z.enum(["text", "binary", "too_large"]),
  /** UTF-8 text when `kind` is `text`, otherwise empty (never more characters than bytes). */
  content: z.string().max(MAX_EDITOR_FILE_BYTES),
});
export type ReadResult = z.infer<typeof readResult>;

export const writeInput = z.object({
  workspaceId,
  path: workspacePath,
  content: z.string().max(MAX_EDITOR_FILE_BYTES, "the file is larger than 5 MB"),
  /** When given, the write fails with CONFLICT if the file changed since that version was read. */
  expectedVersion: fileVersion.optional(),
});

export const writeResult = z.object({
  path: answeredPath,
  size: z.number().nonnegative(),
  mtimeMs: z.number(),
  version: fileVersion,
});
export type WriteResult = z.infer<typeof writeResult>;

export const renameInput = z.object({ workspaceId, from: workspacePath, to: workspacePath });
export const deleteInput = z.object({ workspaceId, path: workspacePath });
export const mkdirInput = z.object({ workspaceId, path: workspacePath });

export const fileChange = z.object({
  type: z.enum(["add", "addDir", "change", "unlink", "unlinkDir"]),
  path: answeredPath,
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
