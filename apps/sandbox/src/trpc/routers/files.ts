import {
  changesInput,
  deleteInput,
  fileListInput,
  imageInput,
  MAX_EDITOR_FILE_BYTES,
  MAX_LISTED_FILES,
  mkdirInput,
  readInput,
  renameInput,
  replaceInput,
  searchInput,
  treeInput,
  unpackInput,
  writeInput,
} from "@coder/protocol";
import { tracked } from "@trpc/server";
import { readImage } from "../../files/read-image";
import { replaceInFiles } from "../../files/replace-in-files";
import { streamSearch } from "../../files/search-stream";
import { writeWorkspaceFile } from "../../files/write-file";
import { router, runningWorkspaceProcedure, withMappedErrors, workspaceProcedure } from "../init";

/** File operations all go to the workspace's daemon, which enforces that paths stay inside /workspace. */
export const filesRouter = router({
  tree: runningWorkspaceProcedure("viewer")
    .input(treeInput)
    .query(async ({ ctx, input }) => {
      return ctx.daemon.request("fs.tree", { path: input.path, depth: input.depth });
    }),
  read: runningWorkspaceProcedure("viewer")
    .input(readInput)
    .query(async ({ ctx, input }) => {
      return ctx.daemon.request("fs.read", { path: input.path, maxBytes: MAX_EDITOR_FILE_BYTES });
    }),
  write: runningWorkspaceProcedure("editor")
    .input(writeInput)
    .mutation(async ({ ctx, input }) => {
      const { workspaceId: _, ...write } = input;
      return writeWorkspaceFile(ctx.daemon, write);
    }),
  mkdir: runningWorkspaceProcedure("editor")
    .input(mkdirInput)
    .mutation(async ({ ctx, input }) => {
      return ctx.daemon.request("fs.mkdir", { path: input.path });
    }),
  rename: runningWorkspaceProcedure("editor")
    .input(renameInput)
    .mutation(async ({ ctx, input }) => {
      return ctx.daemon.request("fs.rename", { from: input.from, to: input.to });
    }),
  delete: runningWorkspaceProcedure("editor")
    .input(deleteInput)
    .mutation(async ({ ctx, input }) => {
      return ctx.daemon.request("fs.delete", { path: input.path });
    }),
  /** Every file of the workspace for quick open (`.gitignore` respected), at most MAX_LISTED_FILES. */
  list: runningWorkspaceProcedure("viewer")
    .input(fileListInput)
    .query(({ ctx }) => ctx.daemon.request("search.files", { limit: MAX_LISTED_FILES })),
  /** Find in files: batches of matches grouped by file as ripgrep finds them, then a summary. */
  search: workspaceProcedure("viewer")
    .input(searchInput)
    .subscription(({ ctx, input, signal }) =>
      withMappedErrors(streamSearch(ctx.daemons, input.workspaceId, input.query, signal)),
    ),
  /** Replaces every match in the given files through the editor's write path; answers what undo needs. */
  replace: runningWorkspaceProcedure("editor")
    .input(replaceInput)
    .mutation(async ({ ctx, input }) => {
      return replaceInFiles(ctx.daemon, input);
    }),
  /** An image file's bytes and type for the viewer (PNG, JPEG, GIF, WebP, SVG), at most MAX_IMAGE_BYTES. */
  image: runningWorkspaceProcedure("viewer")
    .input(imageInput)
    .query(async ({ ctx, input }) => {
      return readImage(ctx.daemon, input.path);
    }),
  /** Unpacks the caller's upload into a folder (files dropped on the tree), inside a job container. */
  unpack: workspaceProcedure("editor")
    .input(unpackInput)
    .mutation(({ ctx, input }) =>
      ctx.workspaceImports.unpackUpload(input.workspaceId, {
        uploadId: input.uploadId,
        owner: ctx.principal.sessionId,
        into: input.path,
      }),
    ),
  /**
   * Batches of file changes under the workspace. `{resync: true}` means changes may have been
   * missed (the client reloads what it shows).
   */
  changes: workspaceProcedure("viewer")
    .input(changesInput)
    .subscription(async function* ({ ctx, input, signal }) {
      await ctx.workspaces.get(input.workspaceId);
      ctx.daemons
        .connection(input.workspaceId)
        .ensure()
        .catch(() => undefined);
      for await (const e of ctx.daemons.fileFeed(input.workspaceId).subscribe(input.lastEventId, signal)) {
        if (e.kind === "resync") yield tracked("resync", { changes: [], resync: true });
        else yield tracked(e.item.id, { changes: e.item.data.changes, resync: false });
      }
    }),
});
