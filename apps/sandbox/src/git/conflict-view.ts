import { type GitConflictView, MAX_GIT_PATCH_CHARS } from "@coder/protocol";
import type { DaemonConnection } from "../daemon/daemon-connection";
import { ServiceError } from "../errors/service-error";

/**
 * A conflicted file in three ways: ours and theirs (and their base) from the index, and the result,
 * the file as the merge left it in the work tree with its version, so that the resolution is
 * written only over what was shown. A result that is not text, or too long, comes back as null
 * and `truncated`: that file is resolved in the editor.
 */
export async function conflictView(
  daemon: Pick<DaemonConnection, "request">,
  path: string,
): Promise<GitConflictView> {
  const sides = await daemon.request("git.conflict", { path });
  // A side that deleted the file leaves none in the work tree.
  const file = await daemon
    .request("fs.read", { path, maxBytes: MAX_GIT_PATCH_CHARS })
    .catch((error: unknown) => {
      if (error instanceof ServiceError && error.kind === "not_found") return null;
      throw error;
    });
  const text = file?.kind === "text" ? file.content : null;
  return {
    ...sides,
    result: text,
    version: file?.version ?? null,
    truncated: sides.truncated || file?.kind === "too_large",
  };
}
