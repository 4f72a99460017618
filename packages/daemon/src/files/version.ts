import type { BigIntStats } from "node:fs";

/** Size, modification time and the version token derived from them, for read/write/stat results. */
export interface FileFacts {
  size: number;
  mtimeMs: number;
  version: string;
}

/**
 * The version is the nanosecond modification time plus the size: it changes on every write
 * without reading the file, so even a file too large to send has one.
 */
export function fileFacts(stats: BigIntStats): FileFacts {
  return {
    size: Number(stats.size),
    mtimeMs: Number(stats.mtimeNs / 1000n) / 1000,
    version: `${stats.mtimeNs}-${stats.size}`,
  };
}
