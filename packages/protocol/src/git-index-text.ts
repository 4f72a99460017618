import { z } from "zod";
import { workspacePath } from "./files";
import { workspaceId } from "./workspace";

/** The index's version of a file is read for the editor's change markers only up to this size. */
export const MAX_GIT_INDEX_TEXT_BYTES = 2 * 1024 * 1024;

/**
 * A file's version in the index (what `git show :path` prints), which the editor's gutter compares
 * the live text with. `outside`: the workspace is not a repository; the other states say why
 * there is no text to compare with.
 */
export const gitIndexText = z.discriminatedUnion("state", [
  z.object({ state: z.literal("tracked"), text: z.string().max(MAX_GIT_INDEX_TEXT_BYTES) }),
  z.object({ state: z.enum(["outside", "untracked", "unmerged", "not_a_file", "binary", "too_large"]) }),
]);
export type GitIndexText = z.infer<typeof gitIndexText>;

export const gitIndexTextInput = z.object({ workspaceId, path: workspacePath });
