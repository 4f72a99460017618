import path from "node:path";
import { containerLayout } from "@coder/protocol";

/** The workspace root inside the container; the model may write paths relative to it or absolute. */
const WORKSPACE_ROOT = containerLayout.workspace;
/** Where tools spill outputs cut for the model; the model is told to `read` them from there. */
const SPILL_ROOT = containerLayout.spillDir;

/**
 * A path argument as a permission subject: relative to the workspace root, normalised, so that
 * `./src/a.ts`, `src//a.ts` and `/workspace/src/a.ts` are all `src/a.ts`. Paths that leave the
 * workspace keep their absolute (or `..`) form, which `isOutsideWorkspace` recognises.
 */
export function normalizePath(input: string): string {
  const posix = input.replaceAll("\\", "/");
  const absolute = posix.startsWith("/")
    ? path.posix.normalize(posix)
    : path.posix.normalize(`${WORKSPACE_ROOT}/${posix}`);
  if (absolute === WORKSPACE_ROOT) return ".";
  if (absolute.startsWith(`${WORKSPACE_ROOT}/`)) return absolute.slice(WORKSPACE_ROOT.length + 1);
  return absolute;
}

/** Whether a normalised path lies outside the workspace (and outside the spill folder tools point to). */
export function isOutsideWorkspace(normalized: string): boolean {
  if (!normalized.startsWith("/")) return false;
  return !(normalized === SPILL_ROOT || normalized.startsWith(`${SPILL_ROOT}/`));
}
