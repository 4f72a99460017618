// Content hashes of files and folders: what decides whether an image or a build is up to date.
import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import path from "node:path";

/**
 * A sha256 (hex) over the given files and folders below `base`: every file's path relative to
 * `base`, its kind and its content (a symlink's target), in a fixed order. Folder or file names
 * listed in `ignore` are skipped at any depth. A missing path adds nothing (creating it changes
 * the hash). `extra` strings (a base image id, a version) are hashed too.
 */
export async function hashTree(base, paths, { ignore = [], extra = [] } = {}) {
  const skip = new Set(ignore);
  const hash = createHash("sha256");
  for (const value of extra) hash.update(`extra\0${value}\n`);
  for (const relative of [...paths].sort()) await addEntry(hash, base, relative, skip);
  return hash.digest("hex");
}

async function addEntry(hash, base, relative, skip) {
  const full = path.join(base, relative);
  const stat = await lstat(full).catch(() => null);
  const name = relative.split(path.sep).join("/");
  if (stat === null) return;
  if (stat.isSymbolicLink()) {
    hash.update(`link\0${name}\0${await readlink(full)}\n`);
  } else if (stat.isDirectory()) {
    const children = (await readdir(full)).filter((child) => !skip.has(child)).sort();
    hash.update(`dir\0${name}\n`);
    for (const child of children) await addEntry(hash, base, path.join(relative, child), skip);
  } else if (stat.isFile()) {
    const content = createHash("sha256")
      .update(await readFile(full))
      .digest("hex");
    // The executable bit matters to an image (COPY keeps it).
    const mode = stat.mode & 0o111 ? "x" : "-";
    hash.update(`file\0${name}\0${mode}\0${content}\n`);
  }
}
