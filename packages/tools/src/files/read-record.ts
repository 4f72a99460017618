import type { Stats } from "node:fs";
import { type FileRecord, type ToolContext, ToolError } from "../framework/types";

/** The text of files up to this size is kept with the record, to judge a later change by its lines. */
export const RECORD_TEXT_CHARS = 2 * 1024 * 1024;
/** At most this much kept text per session: the oldest records lose theirs first. */
const SESSION_TEXT_CHARS = 16 * 1024 * 1024;

/**
 * Remembers the file as the session now knows it (after a read or its own write): its mtime and
 * size, and `text` (LF) when given and small enough. A record without text can only say whether
 * the file changed at all.
 */
export function recordFileState(ctx: ToolContext, absolute: string, stat: Stats, text?: string): void {
  const files = ctx.session.files;
  files.delete(absolute);
  const record: FileRecord = { mtimeMs: stat.mtimeMs, size: stat.size };
  if (text !== undefined && text.length <= RECORD_TEXT_CHARS) record.text = text;
  files.set(absolute, record);
  let kept = 0;
  for (const known of files.values()) kept += known.text?.length ?? 0;
  // A Map iterates in insertion order, and a record is re-inserted on every update: oldest first.
  for (const known of files.values()) {
    if (kept <= SESSION_TEXT_CHARS) break;
    if (known.text === undefined || known === record) continue;
    kept -= known.text.length;
    delete known.text;
  }
}

/**
 * Read-before-write: the text the session knows the file by, which the tool's change is judged
 * against (its lines must be unchanged in `current`, see merge-change.ts). A file this session
 * never read is refused; one whose text was not kept (too large) must be unchanged on disk since.
 */
export function knownText(
  ctx: ToolContext,
  absolute: string,
  shown: string,
  stat: Stats,
  current: string,
): string {
  const known = ctx.session.files.get(absolute);
  if (!known) {
    throw new ToolError(
      "stale_file",
      `${shown} exists and has not been read in this session`,
      `read ${shown} first, then write it`,
    );
  }
  if (known.text !== undefined) return known.text;
  if (known.mtimeMs !== stat.mtimeMs || known.size !== stat.size) {
    throw new ToolError(
      "stale_file",
      `${shown} changed on disk since it was last read (someone else edited it)`,
      `read ${shown} again and apply your change to its current content`,
    );
  }
  return current;
}
