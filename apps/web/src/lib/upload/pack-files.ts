import { tarEnd, tarHeader, tarPadding } from "@coder/protocol";

/** A dropped file with its path inside the drop (folders included), or an empty folder. */
export type DroppedEntry = { path: string; file: File } | { path: string; folder: true };

/**
 * Packs dropped files into a tar Blob without reading them: the Blob is headers and the File
 * objects themselves, so the browser streams each from disk as the upload goes out.
 */
export function packFiles(entries: readonly DroppedEntry[]): Blob {
  const parts: BlobPart[] = [];
  for (const entry of entries) {
    const mtime = "file" in entry ? Math.floor(entry.file.lastModified / 1000) : 0;
    if ("folder" in entry) {
      parts.push(tarHeader({ name: `${entry.path}/`, type: "dir", mtime }));
      continue;
    }
    const { size } = entry.file;
    parts.push(tarHeader({ name: entry.path, type: "file", size, mtime }));
    parts.push(entry.file, tarPadding(size));
  }
  parts.push(tarEnd());
  return new Blob(parts, { type: "application/x-tar" });
}

/** Reads every entry of a folder reader (it answers in batches until an empty one). */
function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => {
    const all: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

async function walk(entry: FileSystemEntry, prefix: string, out: DroppedEntry[]): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    out.push({ path, file });
    return;
  }
  const children = await readAll((entry as FileSystemDirectoryEntry).createReader());
  if (children.length === 0) out.push({ path, folder: true });
  for (const child of children) await walk(child, path, out);
}

/**
 * What was dropped, folders walked. The entries must be taken from the DataTransfer during the
 * drop event itself (it is emptied afterwards): call this synchronously there and await it later.
 */
export function droppedEntries(data: DataTransfer): Promise<DroppedEntry[]> {
  const roots = [...data.items].flatMap((item) => {
    const entry = item.kind === "file" ? item.webkitGetAsEntry() : null;
    return entry ? [entry] : [];
  });
  // Without the entries API (or for synthetic drops) the plain file list still has the files.
  if (roots.length === 0) return Promise.resolve([...data.files].map((file) => ({ path: file.name, file })));
  return (async () => {
    const out: DroppedEntry[] = [];
    for (const root of roots) await walk(root, "", out);
    return out;
  })();
}
