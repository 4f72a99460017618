// Questions about local Docker images, asked through the docker CLI.
import { capture } from "./run.mjs";

/** The image's id (sha256:...), or null when the engine has no such image. */
export async function imageId(ref) {
  const result = await capture("docker", ["image", "inspect", "--format", "{{.Id}}", ref]);
  return result.code === 0 ? result.stdout.trim() : null;
}

/** The image's size in bytes as `docker image inspect` reports it. */
export async function imageSize(ref) {
  const result = await capture("docker", ["image", "inspect", "--format", "{{.Size}}", ref]);
  return Number(result.stdout.trim());
}

/** Formats a byte count as "312 MB". */
export function formatBytes(bytes) {
  return `${Math.round(bytes / 1e6)} MB`;
}

/**
 * An image built this recently is kept even when it is not the newest: another checkout of the
 * project on the same engine (a second clone, a git worktree) may have just built it for its tests.
 */
const KEEP_RECENT_MS = 2 * 3600_000;

/** When the image was built (ms since the epoch), or 0 when the engine cannot say. */
async function imageCreated(ref) {
  const result = await capture("docker", ["image", "inspect", "--format", "{{.Created}}", ref]);
  const at = Date.parse(result.stdout.trim());
  return result.code === 0 && Number.isFinite(at) ? at : 0;
}

/**
 * Removes the `name:<12-hex content hash>` images other than `keep` that were built more than two
 * hours ago. `docker image rm` without force refuses an image a container still uses, so
 * workspaces on an older image keep it. Returns how many were removed.
 */
export async function removeOlderImages(name, keep, now = Date.now()) {
  const listed = await capture("docker", ["image", "ls", name, "--format", "{{.Repository}}:{{.Tag}}"]);
  const old = listed.stdout
    .split("\n")
    .map((line) => line.trim())
    .filter((ref) => /:[0-9a-f]{12}$/.test(ref) && ref !== keep);
  let removed = 0;
  for (const ref of old) {
    if (now - (await imageCreated(ref)) < KEEP_RECENT_MS) continue;
    if ((await capture("docker", ["image", "rm", ref])).code === 0) removed++;
  }
  return removed;
}
