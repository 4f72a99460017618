import path from "node:path";
import type { ToolContext } from "../../framework/types";
import { compileGlob } from "../../search/glob-match";
import { ripgrepBinary, runRipgrep, WALK_FLAGS } from "../../search/ripgrep";
import { walkFiles } from "../../search/walk";

/** Enough candidates to pick the newest from without stat-ing a whole monorepo. */
export const MAX_CANDIDATES = 20_000;

/** Absolute paths of files under `folder` matching `pattern` (at most MAX_CANDIDATES + 1). */
export async function findFiles(ctx: ToolContext, folder: string, pattern: string): Promise<string[]> {
  const found: string[] = [];
  const keep = (absolute: string) => {
    found.push(absolute);
    return found.length <= MAX_CANDIDATES;
  };
  const rg = await ripgrepBinary(ctx.config);
  if (rg) {
    await runRipgrep(rg, ["--files", ...WALK_FLAGS, "--glob", pattern], folder, ctx.abort, (line) =>
      keep(path.join(folder, line)),
    );
    return found;
  }
  const matches = compileGlob(pattern);
  for await (const file of walkFiles(ctx.workspaceRoot, folder, ctx.abort)) {
    if (matches(file.relative) && !keep(file.absolute)) break;
  }
  return found;
}
