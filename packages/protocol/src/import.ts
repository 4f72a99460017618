import { z } from "zod";

/** An upload's id, as `POST /api/uploads` answers it. */
export const uploadId = z.string().regex(/^[a-z0-9]{24}$/, "not an upload id");

/**
 * A branch or tag name as git accepts it, and nothing an option parser could take for a flag:
 * no leading "-", no "..", no "@{", no spaces, control characters or `~^:?*[\`.
 */
const gitRef = z
  .string()
  .trim()
  .min(1)
  .max(255, "a branch or tag name is at most 255 characters")
  .regex(
    /^(?!-)(?!.*\.\.)(?!.*@\{)(?!.*\/\/)(?!.*\.lock$)(?!.*\/$)(?!.*\/\.)(?!\.)[A-Za-z0-9._/+@-]+$/,
    "not a branch or tag name",
  );

/**
 * The repository's address. Only http(s), never credentials in it (they would stay in the
 * workspace's `.git/config`: the token field exists for that). The service decides further whether
 * plain http is allowed (docs/security.md).
 */
const gitUrl = z
  .string()
  .trim()
  .min(1, "give the repository's URL")
  .max(2048, "a URL is at most 2048 characters")
  .refine((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), {
    message: "the URL must start with https://",
  })
  .refine((text) => !URL.canParse(text) || (!new URL(text).username && !new URL(text).password), {
    message: "put no name or token into the URL; use the token field",
  });

export const gitSource = z.object({
  type: z.literal("git"),
  url: gitUrl,
  /** A branch or a tag; the remote's default branch without it. */
  ref: gitRef.optional(),
  /** For a private repository: sent to the git server only, never stored. */
  token: z.string().min(1).max(4096, "a token is at most 4096 characters").optional(),
  /** A shallow clone of this many commits. */
  depth: z.number().int().min(1).max(1_000_000).optional(),
  /** Also clone the repository's submodules (off unless asked). */
  submodules: z.boolean().default(false),
});
export type GitSource = z.infer<typeof gitSource>;

export const uploadSource = z.object({ type: z.literal("upload"), uploadId });

/** What a new workspace is filled with; an empty workspace without it. */
export const workspaceSource = z.discriminatedUnion("type", [gitSource, uploadSource]);
export type WorkspaceSource = z.infer<typeof workspaceSource>;

/** The phases a workspace goes through while being filled, in the order they come. */
export const importPhase = z.enum([
  "connecting",
  "counting",
  "receiving",
  "resolving",
  "checkout",
  "unpacking",
]);
export type ImportPhase = z.infer<typeof importPhase>;

export const importProgress = z.object({
  phase: importPhase,
  /** 0–100, or null while the phase does not know its total yet. */
  percent: z.number().min(0).max(100).nullable(),
});
export type ImportProgress = z.infer<typeof importProgress>;

/** An archive entry that was not unpacked, and why. */
export const skippedEntry = z.object({ path: z.string().max(512), reason: z.string().max(200) });
export type SkippedEntry = z.infer<typeof skippedEntry>;

/** What unpacking an archive did: bounded lists, whatever the archive holds. */
export const unpackReport = z.object({
  files: z.number().int().min(0),
  folders: z.number().int().min(0),
  links: z.number().int().min(0),
  bytes: z.number().int().min(0),
  /** At most the first 200 skipped entries; `skippedTotal` counts them all. */
  skipped: z.array(skippedEntry).max(200),
  skippedTotal: z.number().int().min(0),
});
export type UnpackReport = z.infer<typeof unpackReport>;

/** Where a workspace's files came from, as stored (never a token). */
export const importOrigin = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("git"),
    url: z.string(),
    ref: z.string().optional(),
    depth: z.number().optional(),
    submodules: z.boolean(),
    /** It was cloned with a token: a retry needs the token again. */
    private: z.boolean(),
  }),
  z.object({ type: z.literal("upload"), name: z.string() }),
]);
export type ImportOrigin = z.infer<typeof importOrigin>;

/** The filling of a workspace from a repository or an archive, as the workspace list shows it. */
export const workspaceImport = z.object({
  origin: importOrigin,
  state: z.enum(["running", "failed", "done"]),
  /** While running. */
  progress: importProgress.optional(),
  /** What unpacking an upload skipped. */
  report: unpackReport.optional(),
});
export type WorkspaceImport = z.infer<typeof workspaceImport>;
