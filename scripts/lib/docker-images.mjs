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
