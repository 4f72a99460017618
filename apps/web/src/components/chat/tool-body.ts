import type { ToolPart } from "@coder/protocol";

/** What the body of a tool card shows, worked out from the call and its result. */
export type ToolBody =
  | { kind: "error"; message: string; hint?: string }
  | { kind: "diff"; diff: string }
  | { kind: "output"; text: string }
  | { kind: "lines"; lines: { number: number; text: string }[] }
  | { kind: "matches"; matches: { path: string; line: number; text: string }[] }
  | { kind: "screenshot"; src: string; width: number; height: number; text: string }
  | { kind: "none" };

const str = (value: unknown): string => (typeof value === "string" ? value : "");
const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};

/** Only what a PNG's base64 can be: the data URL never carries anything else into the page. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const dimension = (value: unknown): number =>
  typeof value === "number" && Number.isInteger(value) && value > 0 ? value : 0;

/** The PNG a result carries (`preview`'s screenshot) as an image source, with its size. */
function screenshotOf(
  result: Record<string, unknown>,
): { src: string; width: number; height: number } | undefined {
  const shot = record(result.screenshot);
  if (shot.media_type !== "image/png" || typeof shot.data !== "string" || !BASE64.test(shot.data))
    return undefined;
  return {
    src: `data:image/png;base64,${shot.data}`,
    width: dimension(shot.width),
    height: dimension(shot.height),
  };
}

/** stdout then stderr, as the shell would have shown them (each part only when there is some). */
function shellOutput(source: Record<string, unknown>): string {
  return [str(source.stdout), str(source.stderr)].filter(Boolean).join("\n");
}

export function toolBody(
  part: Pick<ToolPart, "tool" | "input" | "state" | "result" | "progress" | "output">,
): ToolBody {
  const result = part.result ? record(part.result) : undefined;
  const error = part.result?.error;
  if (error) return { kind: "error", message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  if (part.state === "error") return { kind: "error", message: part.output || "The tool failed." };

  if (part.tool === "bash") {
    const text = shellOutput(result ?? record(part.progress));
    const exit = result && typeof result.exit_code === "number" && result.exit_code !== 0;
    return { kind: "output", text: exit ? `${text}\n[exit code ${result.exit_code}]`.trimStart() : text };
  }
  if (!result) return { kind: "none" };
  // What a call changed shows as a diff: the one its result carries (write, edit, patch), or the
  // patch it was given. No list of tool names to keep in step with the tools.
  const diff = str(result.diff) || str(record(part.input).patch);
  if (diff) return { kind: "diff", diff };
  const screenshot = screenshotOf(result);
  if (screenshot) return { kind: "screenshot", ...screenshot, text: part.output ?? "" };
  if (part.tool === "read" && typeof result.content === "string") {
    const first = typeof result.start_line === "number" ? result.start_line : 1;
    const lines = result.content === "" ? [] : result.content.replace(/\n$/, "").split("\n");
    return { kind: "lines", lines: lines.map((text, i) => ({ number: first + i, text })) };
  }
  if (part.tool === "grep" && Array.isArray(result.matches)) {
    const matches = result.matches.map((m) => {
      const match = record(m);
      return { path: str(match.path), line: Number(match.line) || 0, text: str(match.text) };
    });
    return { kind: "matches", matches };
  }
  return part.output ? { kind: "output", text: part.output } : { kind: "none" };
}

/** The child session a `task` call runs its sub-agent in, once the runtime has made it. */
export function subagentSession(part: Pick<ToolPart, "tool" | "progress">): string | undefined {
  if (part.tool !== "task") return undefined;
  const id = record(part.progress)?.sessionId;
  return typeof id === "string" ? id : undefined;
}
