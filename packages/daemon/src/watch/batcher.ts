import { type FileChange, MAX_CHANGES_PER_NOTIFICATION } from "@coder/protocol";

type ChangeType = FileChange["type"];

/** Gathers events for this long before sending them, so a burst becomes one notification. */
export const FLUSH_DELAY_MS = 75;

/**
 * Folds a new event for a path into the one already pending for it; undefined means the two
 * cancel out (a file created and deleted within one batch never existed for the client).
 */
function fold(previous: ChangeType, next: ChangeType): ChangeType | undefined {
  if (previous === "add" && next === "change") return "add";
  if (previous === "add" && next === "unlink") return undefined;
  if (previous === "addDir" && next === "unlinkDir") return undefined;
  if (previous === "unlink" && next === "add") return "change";
  return next;
}

/**
 * Collects file changes and sends them in batches: the first change of a batch starts a short
 * timer and everything that arrives until it fires goes out together, one entry per path.
 */
export class ChangeBatcher {
  /** Insertion order is event order; a path that changes again moves to the end. */
  private readonly pending = new Map<string, ChangeType>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(private readonly send: (changes: FileChange[]) => void) {}

  push(change: FileChange): void {
    if (this.disposed) return;
    const previous = this.pending.get(change.path);
    const type = previous === undefined ? change.type : fold(previous, change.type);
    this.pending.delete(change.path);
    if (type !== undefined) this.pending.set(change.path, type);
    this.timer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const changes = [...this.pending].map(([path, type]) => ({ type, path }));
    this.pending.clear();
    for (let i = 0; i < changes.length; i += MAX_CHANGES_PER_NOTIFICATION) {
      this.send(changes.slice(i, i + MAX_CHANGES_PER_NOTIFICATION));
    }
  }

  /** Drops what is pending and ignores later changes (the client is gone). */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}
