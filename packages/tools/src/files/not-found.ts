import type { Stats } from "node:fs";
import { statSync } from "node:fs";
import { type ToolContext, ToolError } from "../framework/types";
import { shownPath } from "../paths/tool-paths";
import { similarNames } from "./similar";

/** A `not_found` error for a path the model asked for, suggesting up to 3 similar names. */
export async function notFound(ctx: ToolContext, absolute: string, asked: string): Promise<ToolError> {
  const similar = (await similarNames(absolute)).map((p) => shownPath(ctx, p));
  return new ToolError(
    "not_found",
    `${asked} does not exist`,
    similar.length > 0 ? `did you mean ${similar.join(", ")}?` : "use list or glob to find the right path",
  );
}

/** The stat of a path the model asked for, or that `not_found` error. */
export async function statExisting(ctx: ToolContext, absolute: string, asked: string): Promise<Stats> {
  const st = statSync(absolute, { throwIfNoEntry: false });
  if (!st) throw await notFound(ctx, absolute, asked);
  return st;
}
