// Step 5: the workspace image, tagged with a hash of everything that goes into it, so an image
// is built once per content and a daemon change rebuilds only the last layer.
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
const DAEMON_BUNDLE = "daemon.mjs";

/** `coder-workspace:<first 12 hex of the content hash>`. */
export function imageTag(contentHash) {
  return contentTag(IMAGE_NAME, contentHash);
}

/**
 * Fills `contextDir` with the image sources (everything in images/workspace), the Bash
 * language server and the daemon bundle; removes anything else. Returns the entry names.
 */
export async function prepareContext({
  sourceDir = IMAGE_SOURCE,
  contextDir = path.join(IMAGE_SOURCE, CONTEXT_DIR),
  daemonEntry = DAEMON_ENTRY,
} = {}) {
  const sources = await copySources(sourceDir, contextDir);
  await installNpmPackage(path.join(contextDir, BASH_LS_DIR), BASH_LANGUAGE_SERVER);
  await bundleDaemon({ entry: daemonEntry, outfile: path.join(contextDir, DAEMON_BUNDLE) });
  const entries = [...sources, BASH_LS_DIR, DAEMON_BUNDLE];
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
