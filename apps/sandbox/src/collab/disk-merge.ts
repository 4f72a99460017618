import { createHash } from "node:crypto";
import { COLLAB_TEXT } from "@coder/protocol";
import * as Y from "yjs";
import { textEdits } from "./text-diff";

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
  hash: string;
  /** The text is on disk now: it becomes the baseline. */
  commit(): void;
}

export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

/**
 * Three-way merge of a file on disk into its live Yjs document. The baseline is a second Y.Doc
 * whose text equals what is on disk, always a past state of the live document. A disk change is
 * applied to the baseline as the smallest diff from its text, and that edit — concurrent with
 * whatever people typed since — is merged into the live document, so Yjs keeps both; diffing the
 * live text against the disk instead would erase unsaved typing. Changes are recognised by content
 * hash, never by mtime. The caller runs merges and write-backs one at a time.
 */
export class DiskMerge {
  private readonly base = new Y.Doc();
  private baseText: string;
  private baseHash: string;
  /** Bumped by every baseline move, so a write begun before one cannot commit after it. */
  private generation = 0;
  /** Where the last merged disk change ends (its first changed region), for showing who made it. */
  private lastEdit: Y.RelativePosition | null = null;

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
    this.baseHash = contentHash(this.baseText);
  }

  /** The document and its baseline as Yjs updates, for a later load to continue (constructor). */
  rest(): MergeRest {
    return { live: Y.encodeStateAsUpdate(this.live), base: Y.encodeStateAsUpdate(this.base) };
  }

  get liveText(): string {
    return this.live.getText(COLLAB_TEXT).toString();
  }

  get baselineHash(): string {
    return this.baseHash;
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
   * The disk now holds `diskText`; merges it into the live document when it is new. The diff takes
   * time (bounded, in slices): the baseline must not move meanwhile (the caller's one-at-a-time).
   */
  async diskChanged(diskText: string, origin: unknown = DISK_ORIGIN): Promise<DiskOutcome> {
    const hash = contentHash(diskText);
    if (hash === this.baseHash) return "unchanged";
    if (diskText === this.liveText) {
      this.catchUp(diskText, hash);
      return "caught-up";
    }
    const generation = this.generation;
    const edits = await textEdits(this.baseText, diskText);
    if (generation !== this.generation) throw new Error("the baseline moved during a merge");
    let update: Uint8Array | undefined;
    const capture = (u: Uint8Array) => {
      update = u;
    };
    this.base.on("update", capture);
    try {
      this.base.transact(() => {
        const text = this.base.getText(COLLAB_TEXT);
        // Last first, so earlier positions stay valid.
        for (const edit of edits.toReversed()) {
          if (edit.remove > 0) text.delete(edit.at, edit.remove);
          if (edit.insert) text.insert(edit.at, edit.insert);
        }
      });
    } finally {
      this.base.off("update", capture);
    }
    if (update) Y.applyUpdate(this.live, update, origin);
    const first = edits[0];
    this.lastEdit = first
      ? Y.createRelativePositionFromTypeIndex(this.base.getText(COLLAB_TEXT), first.at + first.insert.length)
      : null;
    this.baseText = diskText;
    this.baseHash = hash;
    this.generation++;
    return "merged";
  }

  /**
   * What to write back, or null when the disk already holds the document's text. The baseline
   * moves only on `commit`, once the text is on disk.
   */
  beginWrite(): PendingWrite | null {
    const text = this.liveText;
    const hash = contentHash(text);
    if (hash === this.baseHash) return null;
    const update = Y.encodeStateAsUpdate(this.live, Y.encodeStateVector(this.base));
    const generation = this.generation;
    return {
      text,
      hash,
      commit: () => {
        if (generation !== this.generation) throw new Error("the baseline moved during a write-back");
        this.moveBaseline(update, text, hash);
      },
    };
  }

  private catchUp(text: string, hash: string): void {
    this.moveBaseline(Y.encodeStateAsUpdate(this.live, Y.encodeStateVector(this.base)), text, hash);
  }

  private moveBaseline(update: Uint8Array, text: string, hash: string): void {
    Y.applyUpdate(this.base, update);
    this.baseText = text;
    this.baseHash = hash;
    this.generation++;
  }

  destroy(): void {
    this.base.destroy();
  }
}
