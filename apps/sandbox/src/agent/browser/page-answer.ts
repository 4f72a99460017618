import { z } from "zod";

/** The bounds of what the browser job may answer (it is told them, and held to them here). */
export const PAGE_LIMITS = {
  /** Visible text kept for the model. */
  maxTextChars: 20_000,
  /** Console errors, and failed requests, kept (the first ones). */
  maxEntries: 50,
  /** Characters of one console error, URL, reason or title (and its "…"). */
  maxEntryChars: 1000,
  /** Bytes of the PNG; a larger screenshot is left out with a note. */
  maxScreenshotBytes: 1 << 20,
};

/** More than the largest honest answer (the base64 screenshot, the text and the lists). */
export const MAX_ANSWER_CHARS = 4 << 20;

const entry = z.string().max(PAGE_LIMITS.maxEntryChars + 1);

/** The one line of JSON images/browser/load-page.mjs prints. */
export const pageAnswer = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(false), error: entry }),
  z.object({
    ok: z.literal(true),
    url: entry,
    status: z.number().int().min(100).max(999).nullable(),
    title: entry,
    text: z.string().max(PAGE_LIMITS.maxTextChars),
    textTruncated: z.boolean(),
    consoleErrors: z.array(entry).max(PAGE_LIMITS.maxEntries),
    failedRequests: z.array(z.object({ url: entry, reason: entry })).max(PAGE_LIMITS.maxEntries),
    screenshot: z
      .base64()
      .max(Math.ceil(PAGE_LIMITS.maxScreenshotBytes / 3) * 4)
      .optional(),
    screenshotOmitted: entry.optional(),
  }),
]);
export type PageAnswer = z.infer<typeof pageAnswer>;

/** The answer in the job's output (its last line), or undefined when there is none that fits. */
export function readPageAnswer(stdout: string): PageAnswer | undefined {
  const line = stdout.trimEnd().split("\n").pop() ?? "";
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = pageAnswer.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
