import type { Execution, Registry } from "@coder/tools";

/** The part of the @coder/tools registry the daemon serves (injected, so tests can use a stand-in). */
export type ToolRunner = Pick<Registry, "definitions" | "execute">;

/** What a call returns: the structured result and the text the model reads. */
export type ToolOutcome = Execution;
