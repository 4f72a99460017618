// Well-known locations in the repository, resolved from this file so the scripts work from any cwd.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** An absolute path inside the repository. */
export function repoPath(...parts) {
  return path.join(repoRoot, ...parts);
}
