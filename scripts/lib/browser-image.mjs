// Step 6: the browser image the agent's `preview` tool loads pages with (Debian's Chromium and
// playwright-core), built like the workspace image and tagged with its content hash.
import path from "node:path";
import { CONTEXT_DIR, copySources, ensureContextImage, pruneContext } from "./context-image.mjs";
import { installNpmPackage } from "./context-npm.mjs";
import { repoPath } from "./paths.mjs";

export const BROWSER_IMAGE_SOURCE = repoPath("images/browser");
export const BROWSER_IMAGE_NAME = "coder-browser";
// 1.61 is the last release that runs on Node 18, Debian bookworm's nodejs (1.62 needs Node 20).
export const PLAYWRIGHT_CORE = "playwright-core@1.61.1";
const PLAYWRIGHT_DIR = "playwright";

/**
 * Builds the browser image FROM `baseImage` unless the image for this content exists, tags it
 * `coder-browser:latest` too, sets CODER_BROWSER_IMAGE for what runs next, and returns its tag.
 */
export async function ensureBrowserImage(baseImage) {
  const contextDir = path.join(BROWSER_IMAGE_SOURCE, CONTEXT_DIR);
  const sources = await copySources(BROWSER_IMAGE_SOURCE, contextDir);
  await installNpmPackage(path.join(contextDir, PLAYWRIGHT_DIR), PLAYWRIGHT_CORE);
  const entries = [...sources, PLAYWRIGHT_DIR];
  await pruneContext(contextDir, entries);
  const tag = await ensureContextImage({ name: BROWSER_IMAGE_NAME, contextDir, entries, baseImage });
  process.env.CODER_BROWSER_IMAGE = tag;
  return tag;
}
