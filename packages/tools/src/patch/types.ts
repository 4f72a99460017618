import { ToolError, type ToolErrorBody } from "../framework/types";

/** A line of a hunk or chunk: kept (" "), removed ("-") or added ("+"). */
export interface DiffLine {
  op: " " | "-" | "+";
  text: string;
}

export type ChangeOperation = "created" | "modified" | "deleted" | "renamed";

/** One file's change in a plan, computed in memory before anything is written. */
export interface PlannedChange {
  /** Workspace-relative path (the old path of a rename). */
  path: string;
  operation: ChangeOperation;
  /** The new path of a rename. */
  newPath?: string;
  /** The file's new text, in its own line endings and BOM; null when deleted. */
  content: string | null;
  additions: number;
  deletions: number;
}

/** The final state of one file: its new text, or null to delete it. */
export interface FileWrite {
  absolute: string;
  content: string | null;
  /** The text the plan was made on (null: no file); when given, the file is replaced only while it holds it. */
  original?: string | null;
}

export interface Plan {
  changes: PlannedChange[];
  /** What to write, one entry per file, in the order the files were first touched. */
  writes: FileWrite[];
}

/** How a planner sees the workspace; the tools back it with the real folder, tests with a map. */
export interface PatchSource {
  /** Where a path of the patch lies; throws ToolError (permission_denied) for a path outside. */
  locate(path: string): Promise<{ absolute: string; display: string }>;
  /** The file's raw text, or null when there is no file; throws ToolError for other failures. */
  read(absolute: string): Promise<string | null>;
}

/** A result or a typed error; parsers and planners never throw. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ToolErrorBody };

export function failure(
  code: ToolErrorBody["code"],
  message: string,
  hint?: string,
): { ok: false; error: ToolErrorBody } {
  return { ok: false, error: hint === undefined ? { code, message } : { code, message, hint } };
}

/** Runs a planner body that signals failure by throwing ToolError; anything else is a bug surfaced as io_error. */
export async function settle<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof ToolError) return failure(error.code, error.message, error.hint);
    return failure("io_error", error instanceof Error ? error.message : String(error));
  }
}
