import type { ChangedFile } from "@coder/protocol";
import { streamText } from "ai";
import type { ProviderModel } from "../agent/loop/retrying-model";

/** The model gets this long to propose a message; then the plain one is used. */
export const PROPOSE_DEADLINE_MS = 20_000;
/** A commit's summary line is at most this long (git's own advice is about 50-72). */
export const MAX_SUMMARY_CHARS = 72;
/** The most of the turn's prompt and file list the model is shown. */
const MAX_PROMPT_CHARS = 2000;
const MAX_FILES_SHOWN = 50;

/** One line, no control characters, at most MAX_SUMMARY_CHARS. */
function oneLine(text: string): string {
  // \p{Cc}: the control characters (line breaks, escapes, NUL).
  const line = text
    .replace(/\p{Cc}+/gu, " ")
    .replace(/^["'`\s]+|["'`\s]+$/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > MAX_SUMMARY_CHARS ? `${line.slice(0, MAX_SUMMARY_CHARS - 1)}…` : line;
}

/** The message when the model cannot say: the prompt's first line, or a count of files. */
export function plainTurnMessage(prompt: string, files: readonly ChangedFile[]): string {
  const first = oneLine(prompt.trim().split("\n")[0] ?? "");
  if (first) return first;
  return `Agent changes to ${files.length} file${files.length === 1 ? "" : "s"}`;
}

/**
 * A one-line commit summary the session's model proposes from the turn's prompt and files (not
 * its diff: short and cheap), within PROPOSE_DEADLINE_MS; the plain message when the model fails,
 * is not configured, or says nothing usable.
 */
export async function proposeTurnMessage(
  model: () => Promise<ProviderModel>,
  prompt: string,
  files: readonly ChangedFile[],
  log: (line: string) => void,
): Promise<string> {
  const plain = plainTurnMessage(prompt, files);
  try {
    const listed = files
      .slice(0, MAX_FILES_SHOWN)
      .map((f) => `${f.status} ${f.path}`)
      .join("\n");
    const result = streamText({
      model: await model(),
      system:
        "You write git commit summaries. Answer with one imperative line of at most 72 characters, " +
        "no quotes, no trailing period, nothing else.",
      prompt: `The request was:\n${prompt.slice(0, MAX_PROMPT_CHARS)}\n\nThe files changed:\n${listed}`,
      maxOutputTokens: 60,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(PROPOSE_DEADLINE_MS),
      onError: () => {},
    });
    const proposed = oneLine((await result.text).split("\n").find((l) => l.trim() !== "") ?? "");
    return proposed || plain;
  } catch (error) {
    log(`the model proposed no commit message: ${(error as Error).message}`);
    return plain;
  }
}
