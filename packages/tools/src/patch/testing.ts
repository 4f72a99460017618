// Test helpers for the patch planners and tools: an in-memory workspace, a real folder's files as a
// map, and the map a plan's writes would produce.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ToolError } from "../framework/types";
import type { FileWrite, PatchSource } from "./types";

const ROOT = "/workspace/";

/**
 * A PatchSource over an in-memory folder (relative path → raw text). Paths that climb out of it
 * are refused the way the real workspace refuses them.
 */
export function memorySource(files: Record<string, string>): PatchSource {
  return {
    async locate(input) {
      const display = path.posix.normalize(input).replace(/^\.\//, "");
      if (display.startsWith("../") || display === ".." || path.posix.isAbsolute(display)) {
        throw new ToolError("permission_denied", `${input} is outside the workspace`);
      }
      return { absolute: ROOT + display, display };
    },
    async read(absolute) {
      return files[absolute.slice(ROOT.length)] ?? null;
    },
  };
}

/** The in-memory folder after a plan made over memorySource(files) is written. */
export function withWrites(
  files: Record<string, string>,
  writes: readonly FileWrite[],
): Record<string, string> {
  const after = { ...files };
  for (const { absolute, content } of writes) {
    const name = absolute.slice(ROOT.length);
    if (content === null) delete after[name];
    else after[name] = content;
  }
  return after;
}

/** Every file under `root` (relative path → text). */
export function folderSnapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(root, full)] = readFileSync(full, "utf8");
    }
  };
  walk(root);
  return files;
}
