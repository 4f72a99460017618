import type { ToolPart } from "@coder/protocol";

/** The argument that says most about a call, per tool; others fall back to the first string. */
const MAIN_ARGUMENT: Record<string, string> = {
  read: "path",
  write: "path",
  edit: "path",
  list: "path",
  glob: "pattern",
  grep: "pattern",
  bash: "command",
  webfetch: "url",
  websearch: "query",
  task: "objective",
  skill: "name",
};

const MAX_ARGUMENT_CHARS = 80;

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_ARGUMENT_CHARS ? `${line.slice(0, MAX_ARGUMENT_CHARS - 1)}…` : line;
}

/** The paths a patch names (`+++ b/x`, `*** Update File: x`), for its summary. */
function patchPaths(patch: string): string[] {
  const paths = new Set<string>();
  for (const line of patch.split("\n")) {
    const unified = /^\+\+\+ (?:b\/)?(\S+)/.exec(line);
    const envelope = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(line);
    const path = unified?.[1] ?? envelope?.[1];
    if (path && path !== "/dev/null") paths.add(path.trim());
  }
  return [...paths];
}

/** The main argument of a call, as one short line ("" when it has none). */
export function mainArgument(tool: string, input: unknown): string {
  if (typeof input !== "object" || input === null) return "";
  const args = input as Record<string, unknown>;
  if ((tool === "patch" || tool === "apply_patch") && typeof args.patch === "string") {
    return oneLine(patchPaths(args.patch).join(", "));
  }
  // The page the agent looked at, as the workspace serves it.
  if (tool === "preview" && typeof args.port === "number") {
    return oneLine(`:${args.port}${typeof args.path === "string" ? args.path : "/"}`);
  }
  const key = MAIN_ARGUMENT[tool];
  const value = key ? args[key] : Object.values(args).find((v) => typeof v === "string");
  return typeof value === "string" ? oneLine(value) : "";
}

const STATUS_WORDS: Record<ToolPart["state"], string> = {
  pending: "starting",
  waiting: "waiting for you",
  running: "running",
  completed: "done",
  error: "failed",
};

/** What the card's status says; a completed call whose result is not ok failed too. */
export function toolStatus(part: Pick<ToolPart, "state" | "result">): ToolPart["state"] {
  return part.state === "completed" && part.result?.ok === false ? "error" : part.state;
}

export function statusWord(status: ToolPart["state"]): string {
  return STATUS_WORDS[status];
}

/** The one-line summary of a call: tool, main argument, status. */
export function toolSummary(part: Pick<ToolPart, "tool" | "input" | "state" | "result">): string {
  const argument = mainArgument(part.tool, part.input);
  return [part.tool, argument, `· ${statusWord(toolStatus(part))}`].filter(Boolean).join(" ");
}
