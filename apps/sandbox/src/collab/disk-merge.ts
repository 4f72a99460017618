import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import { COLLAB_TEXT } from "@coder/protocol";
import * as Y from "yjs";
import { editBatches } from "./edit-batches";
import type { TextEdit } from "./text-diff";
import { textEditsOffThread } from "./text-diff-thread";

/** The transaction origin of changes that came from the file on disk. */
export const DISK_ORIGIN = "disk";

/** What a look at the disk found. */
export type DiskOutcome =
  /** The disk holds the baseline (an echo of our own write, a `touch`): nothing to do. */
  | "unchanged"
  /** The disk holds what the document holds: only the baseline moved. */
  | "caught-up"
  /** The disk changed: the change was merged into the document. */
  | "merged";

/** A document and its baseline as Yjs updates: what an unloaded document leaves to the next load. */
export interface MergeRest {
  live: Uint8Array;
  base: Uint8Array;
}

/** A write-back in flight: the text to write, and what to do once it is on disk. */
export interface PendingWrite {
  text: string;
  /** The text is on disk now: it becomes the baseline. */
  commit(): void;
  /** The document and the baseline as they will be once committed (for another instance to continue). */
  rest(): MergeRest;
}

/** The text of the baseline `rest` holds (what the disk held when it was made). */
export function baselineTextOf(rest: MergeRest): string {
  const base = new Y.Doc();
  try {
    Y.applyUpdate(base, rest.base);
    return base.getText(COLLAB_TEXT).toString();
  } finally {
    base.destroy();
  }
}

/**
 * Three-way merge of a file on disk into its live Yjs document. The baseline is a second Y.Doc
 * whose text equals what is on disk, always a past state of the live document. A disk change is
 * applied to the baseline as the smallest diff from its text, and that edit — concurrent with
 * whatever people typed since — is merged into the live document, so Yjs keeps both; diffing the
 * live text against the disk instead would erase unsaved typing. Changes are recognised by content
 * (compared as strings: hashing megabytes costs the event loop more), never by mtime. The caller
 * runs merges and write-backs one at a time.
 */
export class DiskMerge {
  private base = new Y.Doc();
  private baseText: string;
  /** Bumped by every baseline move, so a write begun before one cannot commit after it. */
  private generation = 0;
  /** Where the last merged disk change ends (its first changed region), for showing who made it. */
  private lastEdit: Y.RelativePosition | null = null;
  /** The live text as of its last update: building a megabyte string is not free, and merges ask often. */
  private liveTextCache: string | undefined;
  private destroyed = false;

  /**
   * Fills the (empty) live document with the file's text; `origin` marks the load's transaction.
   * From a `rest` (what an earlier load left, see `rest()`), the document continues that history
   * instead; the caller then merges what the disk holds now (`diskChanged`), like any disk change.
   */
  constructor(
    private readonly live: Y.Doc,
    start: string | MergeRest,
    origin: unknown = DISK_ORIGIN,
  ) {
    if (typeof start === "string") {
      this.base.getText(COLLAB_TEXT).insert(0, start);
      Y.applyUpdate(live, Y.encodeStateAsUpdate(this.base), origin);
    } else {
      Y.applyUpdate(this.base, start.base);
      Y.applyUpdate(live, start.live, origin);
    }
    this.baseText = this.base.getText(COLLAB_TEXT).toString();
    live.on("update", this.forgetLiveText);
  }

  private readonly forgetLiveText = () => {
    this.liveTextCache = undefined;
  };

  /**
   * Continues from another instance's merge of the same document (it stopped writing it): its
   * document joins this one (Yjs keeps each item once) and its baseline becomes this one's.
   */
  adopt(rest: MergeRest, origin: unknown = DISK_ORIGIN): void {
    Y.applyUpdate(this.live, rest.live, origin);
    const base = new Y.Doc();
    Y.applyUpdate(base, rest.base);
    this.base.destroy();
    this.base = base;
    this.baseText = base.getText(COLLAB_TEXT).toString();
    this.lastEdit = null;
    this.generation++;
  }

  /** The document and its baseline as Yjs updates, for a later load to continue (constructor). */
  rest(): MergeRest {
    return { live: Y.encodeStateAsUpdate(this.live), base: Y.encodeStateAsUpdate(this.base) };
  }

  get liveText(): string {
    this.liveTextCache ??= this.live.getText(COLLAB_TEXT).toString();
    return this.liveTextCache;
  }

  /** What the disk held when the baseline last moved. */
  get baselineText(): string {
    return this.baseText;
  }

  /** Whether the disk holds what the document holds now. */
  get diskHoldsDocument(): boolean {
    return this.liveText === this.baseText;
  }

  /** The Yjs client id under which disk changes enter the document. */
  get diskClientId(): number {
    return this.base.clientID;
  }

  /** The end of the first region the last merge changed; a position valid in the live document. */
  get lastMergedEdit(): Y.RelativePosition | null {
    return this.lastEdit;
  }

  /**
   * The disk now holds `diskText`; merges it into the live document when it is new. The diff (on a
   * worker thread, bounded) and the batches take time: the baseline must not move meanwhile (the
   * caller's one-at-a-time).
   */
  async diskChanged(diskText: string, origin: unknown = DISK_ORIGIN): Promise<DiskOutcome> {
    if (diskText === this.baseText) return "unchanged";
    if (diskText === this.liveText) {
      this.catchUp(diskText);
      return "caught-up";
    }
    const generation = this.generation;
    // Reading the file took the loop a while already (its answer is parsed at once): comparing
    // the texts and copying what differs to the diff's thread wait for the next turn.
    await nextTurn();
    const edits = await textEditsOffThread(this.baseText, diskText);
    if (generation !== this.generation) throw new Error("the baseline moved during a merge");
    // In batches, each one update for the editors, with the event loop free before the next for twice
    // as long as one took: a file replaced whole would otherwise encode and integrate
    // megabytes in one go, and a merge takes at most a third of the loop's time. Typing that
    // arrives meanwhile merges like any concurrent edit. After the last batch nothing waits: the
    // merge is over (a next one first reads the file).
    let busy = 0;
    for (const batch of editBatches(edits)) {
      if (busy > 0) await sleep(2 * busy);
      if (this.destroyed) throw new Error("the document ended during a merge");
      const started = performance.now();
      const update = this.applyToBase(batch);
      if (update) Y.applyUpdate(this.live, update, origin);
      busy = performance.now() - started;
    }
    const first = edits[0];
    this.lastEdit = first
      ? Y.createRelativePositionFromTypeIndex(this.base.getText(COLLAB_TEXT), first.at + first.insert.length)
      : null;
    this.baseText = diskText;
    this.generation++;
    return "merged";
  }

  /** Applies `batch` (see editBatches) to the baseline; the update that made. */
  private applyToBase(batch: readonly TextEdit[]): Uint8Array | undefined {
    let update: Uint8Array | undefined;
    const capture = (u: Uint8Array) => {
      update = u;
    };
    this.base.on("update", capture);
    try {
      this.base.transact(() => {
        const text = this.base.getText(COLLAB_TEXT);
        for (const edit of batch) {
          if (edit.remove > 0) text.delete(edit.at, edit.remove);
          if (edit.insert) text.insert(edit.at, edit.insert);
        }
      });
    } finally {
      this.base.off("update", capture);
    }
    return update;
  }

  /**
   * What to write back, or null when the disk already holds the document's text. The baseline
   * moves only on `commit`, once the text is on disk.
   */
  beginWrite(): PendingWrite | null {
    const text = this.liveText;
    if (text === this.baseText) return null;
    const update = Y.encodeStateAsUpdate(this.live, Y.encodeStateVector(this.base));
    const generation = this.generation;
    return {
      text,
      commit: () => {
        if (generation !== this.generation) throw new Error("the baseline moved during a write-back");
        this.moveBaseline(update, text);
      },
      rest: () => ({
        live: Y.encodeStateAsUpdate(this.live),
        base: Y.mergeUpdates([Y.encodeStateAsUpdate(this.base), update]),
      }),
    };
  }

  private catchUp(text: string): void {
    this.moveBaseline(Y.encodeStateAsUpdate(this.live, Y.encodeStateVector(this.base)), text);
  }

  private moveBaseline(update: Uint8Array, text: string): void {
    Y.applyUpdate(this.base, update);
    this.baseText = text;
    this.generation++;
  }

  destroy(): void {
    this.destroyed = true;
    this.live.off("update", this.forgetLiveText);
    this.base.destroy();
  }
}
