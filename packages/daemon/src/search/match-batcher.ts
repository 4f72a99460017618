import type { FileMatches, LineMatch } from "@coder/protocol";

/** How long found matches wait for company before they are sent, and how many make a batch anyway. */
const FLUSH_MS = 40;
const BATCH_MATCHES = 250;

/**
 * Groups matches by file as they are found and sends them in batches: the first results reach the
 * browser within FLUSH_MS, and a search with thousands of hits does not send thousands of messages.
 */
export class MatchBatcher {
  private files: FileMatches[] = [];
  private count = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly send: (files: FileMatches[]) => Promise<void>) {}

  push(path: string, match: LineMatch): void {
    const last = this.files.at(-1);
    if (last?.path === path) last.matches.push(match);
    else this.files.push({ path, matches: [match] });
    this.count += 1;
    if (this.count >= BATCH_MATCHES) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Sends what is waiting; resolves once it is written (before the search's answer). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.files.length === 0) return Promise.resolve();
    const files = this.files;
    this.files = [];
    this.count = 0;
    return this.send(files);
  }
}
