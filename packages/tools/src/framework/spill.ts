import { lstat, mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Keeps the full text of an output that was cut for the model, and answers the path the model
 * can `read` or `grep` it at. The default keeps it in the context's spill folder; the service,
 * whose own tools run outside the workspace, keeps it in the workspace's spill folder instead.
 */
export type SaveOutput = (callId: string, text: string) => Promise<string>;

/** Spilled files older than this are removed when the next one is written. */
export const SPILL_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** The spill folder is kept under this many bytes, the oldest files going first. */
export const SPILL_BUDGET_BYTES = 64 * 1024 * 1024;
/** One spilled output keeps at most this many bytes (the first ones). */
export { MAX_SPILL_BYTES } from "@coder/protocol";

/** Saves into `dir` as `<callId>.txt`, then prunes the folder (age and size budget). */
export function spillToFolder(dir: string): SaveOutput {
  return async (callId, text) => {
    const file = path.join(dir, `${safeFileName(callId)}.txt`);
    await mkdir(dir, { recursive: true });
    // Outputs go into the folder, never wherever a link planted in its place leads.
    if (!(await lstat(dir)).isDirectory()) throw new Error("the spill folder is not a folder");
    // A fresh file: never write through whatever (a link, say) sits under that name already.
    await rm(file, { force: true });
    await writeFile(file, text, { flag: "wx" });
    await pruneSpillFolder(dir, file);
    return file;
  };
}

/**
 * Removes spilled files older than SPILL_MAX_AGE_MS, then the oldest ones until the folder is
 * under SPILL_BUDGET_BYTES. `keep` (the file just written) stays. Files that vanish meanwhile (a
 * second call pruning at the same time) are skipped.
 */
export async function pruneSpillFolder(dir: string, keep?: string, now = Date.now()): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: { file: string; size: number; mtimeMs: number }[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(dir, entry.name);
    const info = await stat(file).catch(() => undefined);
    if (info) files.push({ file, size: info.size, mtimeMs: info.mtimeMs });
  }
  files.sort((a, b) => a.mtimeMs - b.mtimeMs);
  let total = files.reduce((sum, f) => sum + f.size, 0);
  for (const f of files) {
    if (f.file === keep) continue;
    if (now - f.mtimeMs <= SPILL_MAX_AGE_MS && total <= SPILL_BUDGET_BYTES) continue;
    await rm(f.file, { force: true });
    total -= f.size;
  }
}

function safeFileName(id: string): string {
  const cleaned = id.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "");
  return cleaned === "" ? "output" : cleaned.slice(0, 200);
}
