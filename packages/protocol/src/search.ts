import { z } from "zod";
import { fileVersion, MAX_EDITOR_FILE_BYTES, workspacePath } from "./files";
import { workspaceId } from "./workspace";

/**
 * Quick open and find in files. Both run ripgrep in the container (`.gitignore` respected, `.git`
 * left out); what comes back is hostile input, so every list and line below has a bound and the
 * answer says when one was reached.
 */

/** Quick open lists at most this many files; a larger workspace is marked `truncated`. */
export const MAX_LISTED_FILES = 100_000;

export const fileListInput = z.object({ workspaceId });

export const fileListResult = z.object({
  files: z.array(z.string().max(4096)).max(MAX_LISTED_FILES),
  truncated: z.boolean(),
});
export type FileListResult = z.infer<typeof fileListResult>;

/** Find in files stops after this many matching lines (and says the results were truncated). */
export const MAX_SEARCH_MATCHES = 5000;
/** A matching line is sent as a window of at most this many characters around its first match. */
export const MAX_MATCH_LINE_CHARS = 400;
/** At most this many highlighted ranges per line. */
const MAX_RANGES_PER_LINE = 50;

/** Comma-separated globs, as in a desktop editor's "files to include": `src/**, *.ts`. */
const globList = z.string().max(2000, "the globs are at most 2000 characters").default("");

export const textQuery = z.object({
  pattern: z
    .string()
    .min(1, "type something to search for")
    .max(2000, "the search is at most 2000 characters"),
  /** A regular expression (ripgrep's syntax) rather than literal text. */
  regex: z.boolean().default(false),
  caseSensitive: z.boolean().default(false),
  wholeWord: z.boolean().default(false),
  include: globList,
  exclude: globList,
});
export type TextQuery = z.infer<typeof textQuery>;

export const searchInput = z.object({ workspaceId, query: textQuery });

/** One matching line. `column` is 1-based in the whole line; `ranges` are offsets into `text`. */
export const lineMatch = z.object({
  line: z.number().int().positive(),
  column: z.number().int().positive(),
  text: z.string().max(MAX_MATCH_LINE_CHARS + 2),
  ranges: z
    .array(z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }))
    .max(MAX_RANGES_PER_LINE),
});
export type LineMatch = z.infer<typeof lineMatch>;

export const fileMatches = z.object({
  path: z.string().max(4096),
  matches: z.array(lineMatch).max(MAX_SEARCH_MATCHES),
});
export type FileMatches = z.infer<typeof fileMatches>;

/** What a search has found so far; a summary when it ends. */
export const searchSummary = z.object({
  matchCount: z.number().int().nonnegative().max(MAX_SEARCH_MATCHES),
  fileCount: z.number().int().nonnegative().max(MAX_SEARCH_MATCHES),
  /** The search stopped at MAX_SEARCH_MATCHES: there are more. */
  truncated: z.boolean(),
});
export type SearchSummary = z.infer<typeof searchSummary>;

/** The events of `files.search`: batches of matches as they are found, then one `done`. */
export type SearchEvent =
  | { type: "matches"; files: FileMatches[] }
  | ({ type: "done"; error?: string } & SearchSummary);

/** A replacement is at most this long. */
export const MAX_REPLACEMENT_CHARS = 10_000;
/** One replace touches at most this many files. */
export const MAX_REPLACE_FILES = 1000;

export const replaceInput = z.object({
  workspaceId,
  query: textQuery,
  /** The text put in place of each match; in a regex search `$1`, `${name}` name groups, `$$` is `$`. */
  replacement: z
    .string()
    .max(MAX_REPLACEMENT_CHARS, `the replacement is at most ${MAX_REPLACEMENT_CHARS} characters`),
  paths: z
    .array(workspacePath)
    .min(1)
    .max(MAX_REPLACE_FILES, `a replace changes at most ${MAX_REPLACE_FILES} files`),
});

/**
 * One file of a replace: changed (with what it held before, for undo, and the version written) or
 * left alone with the reason.
 */
export const replacedFile = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("changed"),
    path: z.string(),
    count: z.number().int().positive(),
    version: z.string(),
    previous: z.string().max(MAX_EDITOR_FILE_BYTES),
  }),
  z.object({ status: z.literal("skipped"), path: z.string(), reason: z.string().max(1000) }),
]);
export type ReplacedFile = z.infer<typeof replacedFile>;

export const replaceResult = z.object({ files: z.array(replacedFile) });
export type ReplaceResult = z.infer<typeof replaceResult>;

/** What the daemon computes for one file of a replace; the service then writes `after`. */
export const replacementPlan = z.object({
  path: z.string().max(4096),
  /** The version read; the write is refused if the file changed since. */
  version: fileVersion,
  count: z.number().int().nonnegative().max(MAX_EDITOR_FILE_BYTES),
  before: z.string().max(MAX_EDITOR_FILE_BYTES),
  after: z.string().max(MAX_EDITOR_FILE_BYTES),
});
export type ReplacementPlan = z.infer<typeof replacementPlan>;

/** Images shown in the viewer: at most this large. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

export const imageInput = z.object({ workspaceId, path: workspacePath });

export const imageMime = z.enum(["image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"]);
export type ImageMime = z.infer<typeof imageMime>;

export const imageResult = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("image"),
    path: z.string(),
    size: z.number(),
    mime: imageMime,
    base64: z.string(),
  }),
  z.object({ kind: z.enum(["too_large", "not_an_image"]), path: z.string(), size: z.number() }),
]);
export type ImageResult = z.infer<typeof imageResult>;

/** The raw bytes of a file, base64, from the daemon (`too_large` carries none). */
export const bytesResult = z.object({
  path: z.string().max(4096),
  size: z.number().int().nonnegative(),
  kind: z.enum(["bytes", "too_large"]),
  base64: z.string().max(Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 4),
});
export type BytesResult = z.infer<typeof bytesResult>;
