// Step 5: the workspace image, tagged with a hash of everything that goes into it, so an image
// is built once per content and a daemon change rebuilds only the last layer.
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { bundleDaemon, DAEMON_ENTRY } from "./bundle.mjs";
import { CONTEXT_DIR, contentTag, copySources, ensureContextImage, pruneContext } from "./context-image.mjs";
import { installNpmPackage } from "./context-npm.mjs";
import { repoPath } from "./paths.mjs";

export { contextHash } from "./context-image.mjs";

export const IMAGE_SOURCE = repoPath("images/workspace");
export const IMAGE_NAME = "coder-workspace";
// 5.6 is the last release that runs on Node 18, Debian bookworm's nodejs (5.8 needs Node 20).
export const BASH_LANGUAGE_SERVER = "bash-language-server@5.6.0";
const BASH_LS_DIR = "bash-ls";
// TypeScript 5.9 like the repository's own: 6.0 changes the compiler's defaults and 7 has no
// tsserver for typescript-language-server to drive. Both need only Node >= 18.
export const TYPESCRIPT_LANGUAGE_SERVER = ["typescript-language-server@4.4.1", "typescript@5.9.3"];
const TS_LS_DIR = "ts-ls";
const DAEMON_BUNDLE = "daemon.mjs";

/** `coder-workspace:<first 12 hex of the content hash>`. */
export function imageTag(contentHash) {
  return contentTag(IMAGE_NAME, contentHash);
}

/**
 * Fills `contextDir` with the image sources (everything in images/workspace), the Bash and
 * TypeScript language servers and the daemon bundle; removes anything else. Returns the entry names.
 */
export async function prepareContext({
  sourceDir = IMAGE_SOURCE,
  contextDir = path.join(IMAGE_SOURCE, CONTEXT_DIR),
  daemonEntry = DAEMON_ENTRY,
} = {}) {
  const sources = await copySources(sourceDir, contextDir);
  await installNpmPackage(path.join(contextDir, BASH_LS_DIR), BASH_LANGUAGE_SERVER);
  await installNpmPackage(path.join(contextDir, TS_LS_DIR), TYPESCRIPT_LANGUAGE_SERVER);
  await removeTranslations(path.join(contextDir, TS_LS_DIR, "node_modules", "typescript", "lib"));
  await bundleDaemon({ entry: daemonEntry, outfile: path.join(contextDir, DAEMON_BUNDLE) });
  const entries = [...sources, BASH_LS_DIR, TS_LS_DIR, DAEMON_BUNDLE];
  await pruneContext(contextDir, entries);
  return entries;
}

/**
 * Builds the workspace image FROM `baseImage` unless the image for this content exists, tags it
 * `coder-workspace:latest` too, sets CODER_IMAGE for what runs next, and returns its tag.
 */
export async function ensureWorkspaceImage(baseImage, { daemonEntry } = {}) {
  const contextDir = path.join(IMAGE_SOURCE, CONTEXT_DIR);
  const entries = await prepareContext({ contextDir, daemonEntry });
  const tag = await ensureContextImage({ name: IMAGE_NAME, contextDir, entries, baseImage });
  process.env.CODER_IMAGE = tag;
  return tag;
}

/**
 * TypeScript's compiler messages in a dozen languages (4 MB, its lib's only folders): nothing
 * starts tsserver with `--locale`, so only the English ones built into the compiler are shown.
 * The image leaves out the system's translations for the same reason.
 */
async function removeTranslations(lib) {
  for (const entry of await readdir(lib, { withFileTypes: true })) {
    if (entry.isDirectory()) await rm(path.join(lib, entry.name), { recursive: true, force: true });
  }
}
