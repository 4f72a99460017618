// An image built from a prepared context folder, tagged with a hash of everything that goes into
// it: built once per content, the older tags removed once nothing uses them.
import { cp, mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { formatBytes, imageId, imageSize, removeOlderImages } from "./docker-images.mjs";
import { hashTree } from "./hash.mjs";
import { run } from "./run.mjs";
import { info } from "./steps.mjs";

export const CONTEXT_DIR = ".context";

/** `<name>:<first 12 hex of the content hash>`. */
export function contentTag(name, contentHash) {
  return `${name}:${contentHash.slice(0, 12)}`;
}

/**
 * Copies every entry of `sourceDir` (but the context itself) into `contextDir`; returns their names.
 */
export async function copySources(sourceDir, contextDir) {
  await mkdir(contextDir, { recursive: true });
  const sources = (await readdir(sourceDir)).filter((name) => name !== CONTEXT_DIR);
  for (const name of sources) {
    await cp(path.join(sourceDir, name), path.join(contextDir, name), { recursive: true, force: true });
  }
  return sources;
}

/** Removes what `contextDir` holds besides `entries` (left over from an earlier layout). */
export async function pruneContext(contextDir, entries) {
  for (const name of await readdir(contextDir)) {
    if (!entries.includes(name)) await rm(path.join(contextDir, name), { recursive: true, force: true });
  }
}

/** The content hash of a prepared context; the base image's id counts as content too. */
export async function contextHash(contextDir, entries, baseImage) {
  return hashTree(contextDir, entries, { extra: [`base ${baseImage} ${(await imageId(baseImage)) ?? ""}`] });
}

/**
 * Builds image `name` FROM `baseImage` out of the prepared `contextDir` unless the image for this
 * content exists, tags it `<name>:latest` too, removes older content tags nothing uses, and
 * returns its tag.
 */
export async function ensureContextImage({ name, contextDir, entries, baseImage }) {
  const hash = await contextHash(contextDir, entries, baseImage);
  const tag = contentTag(name, hash);
  if ((await imageId(tag)) !== null) {
    info(`${tag} is up to date`);
  } else {
    info(`building ${tag} from ${baseImage}`);
    // The legacy builder works with any engine and CLI pair (BuildKit needs the buildx plugin);
    // --force-rm removes its intermediate containers after a failed step too.
    await run(
      "docker",
      [
        "build",
        "--force-rm",
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
  await run("docker", ["tag", tag, `${name}:latest`], { prefix: "tag" });
  const removed = await removeOlderImages(name, tag);
  if (removed > 0) info(`removed ${removed} older ${name} image${removed === 1 ? "" : "s"} nothing uses`);
  info(`${tag}: ${formatBytes(await imageSize(tag))}`);
  return tag;
}
