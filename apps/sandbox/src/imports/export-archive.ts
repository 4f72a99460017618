import type { Writable } from "node:stream";
import { containerLayout } from "@coder/protocol";
import type { WorkspaceDriver } from "../driver/workspace-driver";

/** What the export job said on stderr is kept this long, for the service log. */
const STDERR_LIMIT = 2000;

/**
 * Streams a .tar.gz of the workspace's files into `out`, made by `tar` in a job container that
 * mounts the volume read-only (the host never reads the files). The archive ends cleanly only when
 * tar succeeded; otherwise `out` is destroyed, so the download is visibly cut rather than a
 * truncated archive that looks whole. A closed `out` (the browser went away) ends the job.
 */
export async function streamArchive(
  driver: WorkspaceDriver,
  workspaceId: string,
  image: string,
  out: Writable,
  log: (line: string) => void,
): Promise<void> {
  const job = await driver.volumeJob(workspaceId, {
    image,
    network: "none",
    readOnly: true,
    cmd: [
      "tar",
      "--create",
      "--gzip",
      "--file=-",
      "--ignore-failed-read",
      "--warning=no-file-changed",
      `--directory=${containerLayout.workspace}`,
      ".",
    ],
  });
  let said = "";
  job.stderr.on("data", (chunk: Buffer) => {
    if (said.length < STDERR_LIMIT) said += chunk.toString("utf8", 0, STDERR_LIMIT - said.length);
  });
  const gone = () => void job.close();
  out.once("close", gone);
  job.stdout.pipe(out, { end: false });
  const code = await job.exited;
  out.off("close", gone);
  // 1: some file changed while it was read; the archive is still whole.
  if (code === 0 || code === 1) out.end();
  else {
    log(`export of ${workspaceId}: tar exited with ${code}: ${said.trim()}`);
    out.destroy();
  }
}
