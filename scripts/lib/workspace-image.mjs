// Step 5: the workspace image, tagged with a hash of everything that goes into it, so an image
// is built once per content and a daemon change rebuilds only the last layer.
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { bundleDaemon, DAEMON_ENTRY } from "./bundle.mjs";
import { formatBytes, imageId, imageSize, removeOlderImages } from "./docker-images.mjs";
import { hashTree } from "./hash.mjs";
import { repoPath } from "./paths.mjs";
import { run } from "./run.mjs";
import { info } from "./steps.mjs";

export const IMAGE_SOURCE = repoPath("images/workspace");
export const IMAGE_NAME = "coder-workspace";
const CONTEXT_DIR = ".context";
/**
 * Language servers written for Node, npm-installed on the host (the image has no npm) into a
 * folder of the build context each, so each is one cached image layer. All must run on Node 18,
 * Debian bookworm's nodejs.
 */
const NODE_LANGUAGE_SERVERS = {
  // 5.6 is the last release that runs on Node 18 (5.8 needs Node 20).
  "bash-ls": ["bash-language-server@5.6.0"],
  // TypeScript 5.9 like the repository's own: 6.0 changes the compiler's defaults and 7 has no
  // tsserver for typescript-language-server to drive. Both need only Node >= 18.
  "ts-ls": ["typescript-language-server@4.4.1", "typescript@5.9.3"],
};
const INSTALLED_MARKER = ".coder-installed";
const DAEMON_BUNDLE = "daemon.mjs";

/** `coder-workspace:<first 12 hex of the content hash>`. */
export function imageTag(contentHash) {
  return `${IMAGE_NAME}:${contentHash.slice(0, 12)}`;
}

/**
 * Fills `contextDir` with the image sources (everything in images/workspace), the Node language
 * servers and the daemon bundle; removes anything else. Returns the entry names.
 */
export async function prepareContext({
  sourceDir = IMAGE_SOURCE,
  contextDir = path.join(IMAGE_SOURCE, CONTEXT_DIR),
  daemonEntry = DAEMON_ENTRY,
} = {}) {
  await mkdir(contextDir, { recursive: true });
  const sources = (await readdir(sourceDir)).filter((name) => name !== CONTEXT_DIR);
  for (const name of sources) {
    await cp(path.join(sourceDir, name), path.join(contextDir, name), { recursive: true, force: true });
  }
  for (const [dir, packages] of Object.entries(NODE_LANGUAGE_SERVERS)) {
    await installNodePackages(path.join(contextDir, dir), packages);
  }
  await bundleDaemon({ entry: daemonEntry, outfile: path.join(contextDir, DAEMON_BUNDLE) });
  const entries = [...sources, ...Object.keys(NODE_LANGUAGE_SERVERS), DAEMON_BUNDLE];
  for (const name of await readdir(contextDir)) {
    if (!entries.includes(name)) await rm(path.join(contextDir, name), { recursive: true, force: true });
  }
  return entries;
}

// Installed on the host and kept between builds until the list changes.
async function installNodePackages(dir, packages) {
  const marker = path.join(dir, INSTALLED_MARKER);
  const wanted = packages.join(" ");
  if ((await readFile(marker, "utf8").catch(() => "")) === wanted) return;
  info(`installing ${wanted} into the build context`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  // Its own package.json keeps npm from treating the repository root as the project.
  await writeFile(path.join(dir, "package.json"), '{ "private": true }\n');
  await run(
    "npm",
    ["install", "--prefix", dir, ...packages, "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"],
    { cwd: dir, prefix: "npm" },
  );
  await removeTranslations(path.join(dir, "node_modules"));
  await writeFile(marker, wanted);
}

/**
 * TypeScript's compiler messages in a dozen languages (4 MB): nothing starts tsserver with
 * `--locale`, so only the English ones, built into the compiler, are ever shown. The image leaves
 * out the system's translations for the same reason.
 */
async function removeTranslations(nodeModules) {
  const lib = path.join(nodeModules, "typescript", "lib");
  const entries = await readdir(lib, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isDirectory()) await rm(path.join(lib, entry.name), { recursive: true, force: true });
  }
}

/** The content hash of a prepared context; the base image's id counts as content too. */
export async function contextHash(contextDir, entries, baseImage) {
  return hashTree(contextDir, entries, { extra: [`base ${baseImage} ${(await imageId(baseImage)) ?? ""}`] });
}

/**
 * Builds the workspace image FROM `baseImage` unless the image for this content exists, tags it
 * `coder-workspace:latest` too, sets CODER_IMAGE for what runs next, and returns its tag.
 */
export async function ensureWorkspaceImage(baseImage, { daemonEntry } = {}) {
  const contextDir = path.join(IMAGE_SOURCE, CONTEXT_DIR);
  const entries = await prepareContext({ contextDir, daemonEntry });
  const hash = await contextHash(contextDir, entries, baseImage);
  const tag = imageTag(hash);
  if ((await imageId(tag)) !== null) {
    info(`${tag} is up to date`);
  } else {
    info(`building ${tag} from ${baseImage}`);
    // The legacy builder works with any engine and CLI pair (BuildKit needs the buildx plugin).
    await run(
      "docker",
      [
        "build",
        "--build-arg",
        `BASE_IMAGE=${baseImage}`,
        "--label",
        `coder.content-hash=${hash}`,
        "-t",
        tag,
        ".",
      ],
      { cwd: contextDir, env: { ...process.env, DOCKER_BUILDKIT: "0" }, prefix: "build" },
    );
  }
  await run("docker", ["tag", tag, `${IMAGE_NAME}:latest`], { prefix: "tag" });
  const removed = await removeOlderImages(IMAGE_NAME, tag);
  if (removed > 0)
    info(`removed ${removed} older workspace image${removed === 1 ? "" : "s"} no workspace uses`);
  info(`${tag}: ${formatBytes(await imageSize(tag))}`);
  process.env.CODER_IMAGE = tag;
  return tag;
}
