import { randomBytes } from "node:crypto";
import {
  AGENT_COLLAB_USER,
  type CollabNote,
  type CollabUser,
  MAX_COLLAB_FILE_BYTES,
  type ReadResult,
  type WriteResult,
} from "@coder/protocol";
import * as encoding from "lib0/encoding";
import { type Awareness, applyAwarenessUpdate } from "y-protocols/awareness";
import type * as Y from "yjs";
import { DaemonCallError } from "../daemon/daemon-connection";
import { contentHash } from "./content-hash";
import { DISK_ORIGIN, DiskMerge } from "./disk-merge";
import type { DocumentRest } from "./resting-documents";
import { continuingFrom } from "./shared-rests";

/** Write-back waits this long after the last change… */
export const WRITE_BACK_DELAY_MS = 300;
/** …but no longer than this after the first unwritten one, so steady typing still reaches the disk. */
const WRITE_BACK_MAX_DELAY_MS = 1500;
/** After a failed write-back (the daemon restarting, say), try again after this long. */
const WRITE_RETRY_MS = 2000;
/** How long the agent's cursor stays where it last changed the file. */
const AGENT_CURSOR_MS = 8000;

/** The file operations a live document needs, bound to its workspace's daemon. */
export interface FileAccess {
  read(path: string): Promise<ReadResult>;
  /**
   * Fails with a conflict, writing nothing, unless the file's bytes still hash to `expectedHash`
   * (checked by the daemon in one step with its rename).
   */
  write(path: string, content: string, expectedHash: string): Promise<WriteResult>;
}

/**
 * Whether this service instance writes the document back and merges its disk: always when it is
 * alone; with several instances only the one holding the document's writer lease (WriterLease).
 */
export interface WriterRole {
  readonly writing: boolean;
  /** Asks the lease's store whether this is still so (right before a merge changes the document). */
  confirm(): Promise<boolean>;
}

const SOLE_WRITER: WriterRole = { writing: true, confirm: async () => true };

/** Who changed the file on disk, as the editors show it. */
export type DiskAuthor = "agent" | "disk";

export interface LiveFileEvents {
  /** Tell every editor of the document. */
  note(note: CollabNote): void;
  /** The file is not there any more (deleted or renamed away): the owner decides what follows. */
  gone(file: LiveFile): void;
  /** The file stopped being text the editor can hold: the document must end. */
  unusable(file: LiveFile, reason: "not-text" | "too-large"): void;
  /** The baseline moved (a write-back or a merge): what a takeover would continue from changed. */
  baselineMoved?(file: LiveFile): void;
  /**
   * A write-back is about to replace the file with `rest`'s baseline: resolves once a takeover
   * could continue from it (should this instance die between the write and its sharing).
   */
  writing?(rest: DocumentRest): Promise<void>;
  log(line: string): void;
}

/** Why a file cannot become a live document (Hocuspocus sends `reason` to the editor). */
export class LoadRefusal {
  constructor(readonly reason: "not-text" | "too-large" | "not-found" | "unavailable") {}
}

function isDaemonError(error: unknown, kind: DaemonCallError["kind"]): boolean {
  return error instanceof DaemonCallError && error.kind === kind;
}

/** Reads a file for a live document, refusing what cannot be one. */
export async function readForDocument(files: FileAccess, path: string): Promise<ReadResult> {
  let file: ReadResult;
  try {
    file = await files.read(path);
  } catch (error) {
    if (isDaemonError(error, "not_found")) throw new LoadRefusal("not-found");
    throw error;
  }
  if (file.kind === "binary") throw new LoadRefusal("not-text");
  if (file.kind === "too_large" || file.content.length > MAX_COLLAB_FILE_BYTES)
    throw new LoadRefusal("too-large");
  return file;
}

/**
 * One file's live document in the service, and its disk: writes the document back (at most
 * WRITE_BACK_DELAY_MS after the last change, never when the disk already holds the text, with a
 * compare-and-swap against the content of the baseline) and merges changes on disk into
 * it (DiskMerge). Disk work runs one step at a time, and only while `role` says this instance is
 * the document's writer: a follower's document changes only through the writer's updates.
 */
export class LiveFile {
  /**
   * Which load of the file this is: a copy held by a browser from an earlier load is refused. A
   * load that continues a resting document keeps its epoch (it continues its history).
   */
  readonly epoch: string;
  private readonly merge: DiskMerge;
  private work: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private firstUnwritten: number | undefined;
  private agentClock = 0;
  private agentTimer: NodeJS.Timeout | undefined;
  private saved = true;
  private ended = false;
  /** The last write-back failed (said once, retried quietly). */
  private failing = false;
  /** Agent tool calls running that may change this file: changes on disk meanwhile are the agent's. */
  private agentCalls = 0;
  /** The label of the agent's latest call here (whose prompt it works on). */
  private agentUser: CollabUser = AGENT_COLLAB_USER;

  constructor(
    private readonly doc: Y.Doc,
    private readonly awareness: Awareness,
    public path: string,
    file: ReadResult,
    private readonly files: FileAccess,
    private readonly events: LiveFileEvents,
    rest?: DocumentRest,
    private readonly role: WriterRole = SOLE_WRITER,
  ) {
    this.epoch = rest?.epoch ?? randomBytes(9).toString("base64url");
    this.merge = new DiskMerge(doc, rest?.merge ?? file.content, DISK_ORIGIN);
    doc.on("update", this.onUpdate);
    // What the disk did while the document rested merges like any disk change (before any write).
    if (rest && role.writing)
      void this.enqueue(() => this.merge.diskChanged(file.content).then(() => this.settled()));
  }

  /**
   * This instance became the writer (the one before died or let go): continue from the last
   * state it shared whose baseline is what the disk holds (its last write may or may not have
   * landed: `candidates` are the write it announced, then its last committed state), merge what
   * the disk holds now and write back what is not there yet.
   */
  takeOver(candidates: readonly DocumentRest[]): Promise<void> {
    return this.enqueue(async () => {
      const disk = await readForDocument(this.files, this.path).catch(() => undefined);
      const rest = continuingFrom(candidates, disk?.content);
      if (rest) this.merge.adopt(rest.merge);
      await this.readAndMerge("disk");
    });
  }

  /** This instance stopped being the writer: nothing is written from here any more. */
  standDown(): void {
    this.clearTimer();
    this.events.note({
      type: "disk",
      saved: false,
      error: "Saving paused: this server lost its link to the others; it resumes on its own.",
    });
  }

  get diskHoldsDocument(): boolean {
    return this.saved;
  }

  /** What the disk held when the document last matched it. */
  get baselineText(): string {
    return this.merge.baselineText;
  }

  get diskClientId(): number {
    return this.merge.diskClientId;
  }

  /** Writes pending changes now (before the agent reads the file, before unloading). */
  flush(): Promise<void> {
    this.clearTimer();
    return this.enqueue(() => this.writeBack());
  }

  /** An agent tool call that may change the file starts (until the returned function is called); `agent` labels its edits. */
  agentCallStarted(agent: CollabUser = AGENT_COLLAB_USER): () => void {
    this.agentCalls++;
    this.agentUser = agent;
    let ended = false;
    return () => {
      if (!ended) this.agentCalls--;
      ended = true;
    };
  }

  /** The file may have changed on disk: read it and merge what changed. */
  diskChanged(author: DiskAuthor = "disk"): Promise<void> {
    return this.enqueue(async () => {
      await this.readAndMerge(author);
    });
  }

  /** The file moved to `to` with the same content: write pending changes there and follow it. */
  follow(to: string): Promise<void> {
    return this.enqueue(async () => {
      const from = this.path;
      this.path = to;
      try {
        const file = await readForDocument(this.files, to);
        await this.merge.diskChanged(file.content);
        await this.writeBack();
      } catch (error) {
        this.path = from;
        throw error;
      }
    });
  }

  /** What a later load needs to continue this one (before `end`). */
  rest(): DocumentRest {
    return { epoch: this.epoch, merge: this.merge.rest() };
  }

  /** Whether the document was ended (its file went away or became unusable). */
  get isEnded(): boolean {
    return this.ended;
  }

  /** Stops every timer; the document is going away. */
  end(): void {
    this.ended = true;
    this.clearTimer();
    clearTimeout(this.agentTimer);
    this.doc.off("update", this.onUpdate);
    this.merge.destroy();
  }

  private readonly onUpdate = (_update: Uint8Array, origin: unknown) => {
    if (origin === DISK_ORIGIN || this.ended || !this.role.writing) return;
    this.setSaved(false);
    this.schedule();
  };

  private schedule(): void {
    const now = Date.now();
    this.firstUnwritten ??= now;
    const wait = Math.max(
      0,
      Math.min(WRITE_BACK_DELAY_MS, this.firstUnwritten + WRITE_BACK_MAX_DELAY_MS - now),
    );
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush().catch(() => undefined), wait);
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.firstUnwritten = undefined;
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const run = this.work.then(() => (this.ended ? undefined : step()));
    this.work = run.catch(() => undefined);
    return run;
  }

  private async writeBack(): Promise<void> {
    if (!this.role.writing) return;
    for (let attempt = 0; attempt < 3; attempt++) {
      const write = this.merge.beginWrite();
      if (!write) return this.setSaved(true);
      try {
        await this.events.writing?.({ epoch: this.epoch, merge: write.rest() });
        // Only over the text the baseline holds: a change on disk since (a shell, the agent) is
        // merged first, never overwritten, even when it lands while this write is under way.
        await this.files.write(this.path, write.text, contentHash(this.merge.baselineText));
        this.failing = false;
        write.commit();
        this.events.baselineMoved?.(this);
        this.setSaved(this.merge.diskHoldsDocument);
        // Typing that arrived during the write goes with the next one.
        if (!this.saved) this.schedule();
        return;
      } catch (error) {
        if (isDaemonError(error, "conflict")) {
          // The disk moved since the baseline: merge it first, then write the result.
          if (!(await this.readAndMerge("disk"))) return;
          continue;
        }
        if (isDaemonError(error, "not_found")) return this.events.gone(this);
        // Once per streak: a stopped workspace fails every retry the same way.
        if (!this.failing)
          this.events.log(`collab: writing ${this.path} failed: ${(error as Error).message}`);
        if (!this.failing)
          this.events.note({ type: "disk", saved: false, error: "Could not write the file; trying again." });
        this.failing = true;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.flush().catch(() => undefined), WRITE_RETRY_MS);
        return;
      }
    }
  }

  /** Reads the file and merges it; false when the document cannot go on (the file went away). */
  private async readAndMerge(author: DiskAuthor): Promise<boolean> {
    if (!this.role.writing) return false;
    let file: ReadResult;
    try {
      file = await readForDocument(this.files, this.path);
    } catch (error) {
      if (error instanceof LoadRefusal && error.reason === "not-found") this.events.gone(this);
      else if (error instanceof LoadRefusal && (error.reason === "not-text" || error.reason === "too-large"))
        this.events.unusable(this, error.reason);
      else throw error;
      return false;
    }
    // Merged on two instances, one change would enter the document twice.
    if (file.content !== this.merge.baselineText && !(await this.role.confirm())) return false;
    const outcome = await this.merge.diskChanged(file.content);
    // The watcher may see the agent's write before the call returns: it is the agent's all the same.
    if (outcome === "merged" && (author === "agent" || this.agentCalls > 0)) this.showAgent();
    this.settled();
    return true;
  }

  /** After a merge: tell the editors whether the disk holds the document, and write back if not. */
  private settled(): void {
    this.events.baselineMoved?.(this);
    this.setSaved(this.merge.diskHoldsDocument);
    // People typed while the disk changed: the merged text goes back to disk.
    if (!this.saved) this.schedule();
  }

  private setSaved(saved: boolean): void {
    if (saved === this.saved) return;
    this.saved = saved;
    this.events.note({ type: "disk", saved });
  }

  /** The agent's cursor where its change ends, labelled like a person's, for a few seconds. */
  private showAgent(): void {
    const at = this.merge.lastMergedEdit;
    if (!at) return;
    this.sendAgentState({ user: this.agentUser, cursor: { anchor: at, head: at } });
    clearTimeout(this.agentTimer);
    this.agentTimer = setTimeout(() => this.sendAgentState(null), AGENT_CURSOR_MS);
  }

  private sendAgentState(state: object | null): void {
    const update = encoding.createEncoder();
    encoding.writeVarUint(update, 1);
    encoding.writeVarUint(update, this.merge.diskClientId);
    encoding.writeVarUint(update, ++this.agentClock);
    encoding.writeVarString(update, JSON.stringify(state));
    applyAwarenessUpdate(this.awareness, encoding.toUint8Array(update), "agent");
  }
}
