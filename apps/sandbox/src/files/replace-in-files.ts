import { DaemonErrorCode, type ReplacedFile, type ReplaceResult, type TextQuery } from "@coder/protocol";
import { DaemonCallError, type DaemonConnection } from "../daemon/daemon-connection";
import { writeWorkspaceFile } from "./write-file";

/**
 * What one replace may hand back for undo, in all: past it the remaining files are left alone (and
 * say why), so the answer and the page holding it stay bounded.
 */
export const MAX_UNDO_CHARS = 32 * 1024 * 1024;

export interface ReplaceRequest {
  query: TextQuery;
  replacement: string;
  paths: string[];
}

/**
 * Replaces every match of the query in each file: the daemon computes the new text with ripgrep
 * (the engine that found the matches), and the service writes it through the editor's write path,
 * refused if the file changed since it was read. Each changed file comes back with its previous
 * text and the version written, which is what an undo sends back through the same path.
 */
export async function replaceInFiles(
  daemon: Pick<DaemonConnection, "request">,
  request: ReplaceRequest,
): Promise<ReplaceResult> {
  const files: ReplacedFile[] = [];
  let undoBudget = MAX_UNDO_CHARS;
  for (const path of new Set(request.paths)) {
    const skip = (reason: string) => files.push({ status: "skipped", path, reason });
    try {
      const plan = await daemon.request("search.replaceIn", {
        path,
        query: request.query,
        replacement: request.replacement,
      });
      if (plan.count === 0) {
        skip("no longer matches");
        continue;
      }
      if (plan.before.length > undoBudget) {
        skip("not changed: the replace grew too large to undo in one step; replace in fewer files");
        continue;
      }
      const written = await writeWorkspaceFile(daemon, {
        path: plan.path,
        content: plan.after,
        expectedVersion: plan.version,
      });
      undoBudget -= plan.before.length;
      files.push({
        status: "changed",
        path: written.path,
        count: plan.count,
        version: written.version,
        previous: plan.before,
      });
    } catch (error) {
      // A bad pattern fails every file alike; the daemon being gone ends the replace too. A
      // malformed plan (refused and logged by DaemonConnection) skips its file.
      if (error instanceof DaemonCallError && error.code !== DaemonErrorCode.BadPattern) skip(error.message);
      else throw error;
    }
  }
  return { files };
}
