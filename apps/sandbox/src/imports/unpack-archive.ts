import { type Readable, Transform } from "node:stream";
import { type ImportProgress, type UnpackReport, unpackReport } from "@coder/protocol";
import type { WorkspaceDriver } from "../driver/workspace-driver";
import { ImportError } from "./import-error";
import { runJob } from "./run-job";
import UNPACK_SCRIPT from "./unpack.py";

/** stderr of the unpacker is one plain line; more is not kept. */
const MESSAGE_LIMIT = 1000;

export interface UnpackSettings {
  maxBytes: number;
  timeoutMs: number;
}

/**
 * Unpacks an archive (a .zip, .tar or .tar.gz, streamed in) into `into` (relative to /workspace)
 * inside a job without network: the host only passes the bytes. Resolves with what was unpacked
 * and skipped; rejects with the unpacker's plain message.
 */
export async function unpackInto(
  driver: WorkspaceDriver,
  workspaceId: string,
  image: string,
  archive: { stream: Readable; size: number },
  options: {
    settings: UnpackSettings;
    into: string;
    onProgress(p: ImportProgress): void;
    signal: AbortSignal;
  },
): Promise<UnpackReport> {
  let sent = 0;
  let lastPercent: number | null = -1;
  // Counted on the way through (a "data" listener would start the flow before the job reads it).
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      const percent = archive.size > 0 ? Math.min(100, Math.floor((sent / archive.size) * 100)) : null;
      if (percent !== lastPercent) options.onProgress({ phase: "unpacking", percent });
      lastPercent = percent;
      done(null, chunk);
    },
  });
  archive.stream.on("error", (err) => counted.destroy(err));
  archive.stream.pipe(counted);
  let message = "";
  const { code, stdout } = await runJob(
    driver,
    workspaceId,
    {
      image,
      network: "none",
      cmd: [
        "python3",
        "-I",
        "-c",
        UNPACK_SCRIPT,
        "--limit",
        String(options.settings.maxBytes),
        "--into",
        options.into,
      ],
    },
    {
      stdin: counted,
      onStderr: (chunk) => {
        if (message.length < MESSAGE_LIMIT)
          message += chunk.toString("utf8", 0, MESSAGE_LIMIT - message.length);
      },
      timeoutMs: options.settings.timeoutMs,
      signal: options.signal,
    },
  );
  if (code !== 0)
    throw new ImportError(message.trim().split("\n").pop() || `unpacking failed (exit code ${code})`);
  const report = unpackReport.safeParse(parseLastLine(stdout));
  if (!report.success) throw new ImportError("the unpacker gave no report");
  return report.data;
}

function parseLastLine(text: string): unknown {
  try {
    return JSON.parse(text.trim().split("\n").pop() ?? "");
  } catch {
    return undefined;
  }
}
