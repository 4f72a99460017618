import type { Dirent } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

interface IgnoreLevel {
  base: string;
  rules: Ignore;
}

/** The ignore files ripgrep honours by default, besides git's global ones. */
const IGNORE_FILES = [".gitignore", ".ignore"];

export interface WalkedFile {
  absolute: string;
  /** Relative to the folder the walk started from, with forward slashes. */
  relative: string;
}

/**
 * Every file under `start` the way `rg --files --hidden` sees it: ignore files honoured (those of
 * the folders between `root` and `start` too, unless `start` itself is ignored, i.e. asked for
 * on purpose), `.git` skipped, symbolic links not followed.
 */
export async function* walkFiles(
  root: string,
  start: string,
  signal: AbortSignal,
): AsyncGenerator<WalkedFile> {
  const ancestors = await ancestorLevels(root, start);
  const stack: { folder: string; levels: IgnoreLevel[] }[] = [{ folder: start, levels: ancestors }];
  while (stack.length > 0) {
    if (signal.aborted) return;
    const { folder, levels: parentLevels } = stack.pop() as { folder: string; levels: IgnoreLevel[] };
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      continue; // unreadable or vanished: skipped like rg does
    }
    const own = await levelFor(folder);
    const levels = own ? [...parentLevels, own] : parentLevels;
    entries.sort((a, b) => (a.name < b.name ? 1 : -1)); // popped from the stack in name order
    const folders: string[] = [];
    for (const entry of entries) {
      const absolute = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== ".git" && !isIgnored(levels, absolute, true)) folders.push(absolute);
      } else if (entry.isFile() && !isIgnored(levels, absolute, false)) {
        yield { absolute, relative: toSlash(path.relative(start, absolute)) };
      }
    }
    for (const child of folders) stack.push({ folder: child, levels });
  }
}

async function ancestorLevels(root: string, start: string): Promise<IgnoreLevel[]> {
  const rel = path.relative(root, start);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return [];
  const levels: IgnoreLevel[] = [];
  let folder = root;
  for (const part of rel.split(path.sep)) {
    const level = await levelFor(folder);
    if (level) levels.push(level);
    folder = path.join(folder, part);
    if (isIgnored(levels, folder, true)) return [];
  }
  return levels;
}

async function levelFor(folder: string): Promise<IgnoreLevel | undefined> {
  let rules: Ignore | undefined;
  for (const name of IGNORE_FILES) {
    const text = await readFile(path.join(folder, name), "utf8").catch(() => undefined);
    if (text !== undefined) rules = (rules ?? ignore()).add(text);
  }
  return rules ? { base: folder, rules } : undefined;
}

/** Deeper ignore files override shallower ones, as in git: the last level with an opinion wins. */
function isIgnored(levels: readonly IgnoreLevel[], absolute: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of levels) {
    const rel = toSlash(path.relative(base, absolute)) + (isDir ? "/" : "");
    const verdict = rules.test(rel);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

function toSlash(p: string): string {
  return path.sep === "/" ? p : p.split(path.sep).join("/");
}
