/** Workspace files a call touches: none, any of them (a shell, a search, a sub-agent), or the paths its arguments name. */
export type FileReach<A> = "none" | "any" | ((args: A) => string[]);

/**
 * What a tool does to the workspace and where it runs, on its definition, so that whoever needs
 * to know (which runner calls it, turn snapshots, the live documents that must be written before
 * it reads and merged after it writes) reads it here instead of keeping a list of its own.
 */
export interface ToolFacts<A = never> {
  /** "service": the agent runtime runs it (it needs the person, the model, the web or the database); "workspace": the daemon does. */
  runsIn: "service" | "workspace";
  reads: FileReach<A>;
  changes: FileReach<A>;
  /** The session's todo list, kept by the service: loaded before the call, saved after it when it writes. */
  todoList?: "reads" | "writes";
}

/** The files a call reaches, from its arguments as the model sent them (unchecked): a list, or "any". */
export function filesReached(reach: FileReach<never>, args: Record<string, unknown>): string[] | "any" {
  if (reach === "none") return [];
  if (reach === "any") return "any";
  try {
    const paths = (reach as (args: Record<string, unknown>) => unknown)(args);
    return Array.isArray(paths) ? paths.filter((p): p is string => typeof p === "string") : "any";
  } catch {
    // Arguments the tool will refuse anyway; assume the worst rather than nothing.
    return "any";
  }
}

/** The facts of a tool nobody describes (a newer daemon's): it may read and change anything. */
export const UNKNOWN_TOOL_FACTS: ToolFacts = { runsIn: "workspace", reads: "any", changes: "any" };
