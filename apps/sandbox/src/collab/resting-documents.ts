import type { MergeRest } from "./disk-merge";

/** What the resting documents of all workspaces may hold together; the oldest go first. */
export const MAX_RESTING_BYTES = 64 * 1024 * 1024;
/** A document rests this long after it unloaded; a copy older than that reopens from disk. */
export const MAX_REST_MS = 60 * 60 * 1000;

/** A document as it unloaded: its load's epoch and its Yjs state (with the baseline's). */
export interface DocumentRest {
  epoch: string;
  merge: MergeRest;
}

interface Entry {
  rest: DocumentRest;
  bytes: number;
  at: number;
}

/**
 * Documents that unloaded, kept so that an editor whose copy was offline longer than the unload
 * grace can sync its typing back into the same history instead of being refused as a stale copy
 * (the next load continues the rest, with the same epoch, and merges what the disk did
 * meanwhile). Bounded in bytes and age; a stopped or deleted workspace's are dropped at once.
 */
export class RestingDocuments {
  /** In order of resting, oldest first. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The rests of one workspace, by document name. */
  of(workspaceId: string): LocalRests {
    const key = (name: string) => `${workspaceId}\0${name}`;
    return {
      keep: (name, rest) => this.keep(key(name), rest),
      take: (name) => this.take(key(name)),
      epochOf: (name) => this.live(key(name))?.rest.epoch,
    };
  }

  /** Drops every rest of the workspace (it stopped, or was deleted). */
  forget(workspaceId: string): void {
    const prefix = `${workspaceId}\0`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.drop(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private keep(key: string, rest: DocumentRest): void {
    this.drop(key);
    const bytes = rest.merge.live.byteLength + rest.merge.base.byteLength;
    if (bytes > MAX_RESTING_BYTES) return;
    const now = this.now();
    this.entries.set(key, { rest, bytes, at: now });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= MAX_RESTING_BYTES && now - entry.at <= MAX_REST_MS) break;
      this.drop(oldest);
    }
  }

  private take(key: string): DocumentRest | undefined {
    const entry = this.live(key);
    this.drop(key);
    return entry?.rest;
  }

  /** The entry when it has not rested too long (an expired one is dropped). */
  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.at > MAX_REST_MS) {
      this.drop(key);
      return undefined;
    }
    return entry;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

/** Where a workspace's documents rest: in this process, or shared by the instances (SharedRests). */
export interface WorkspaceRests {
  keep(name: string, rest: DocumentRest): void | Promise<void>;
  /** The rest of `name` (the document loads from it now). */
  take(name: string): DocumentRest | undefined | Promise<DocumentRest | undefined>;
  epochOf(name: string): string | undefined | Promise<string | undefined>;
}

/** A workspace's rests in this process: given back once. */
export interface LocalRests extends WorkspaceRests {
  keep(name: string, rest: DocumentRest): void;
  take(name: string): DocumentRest | undefined;
  epochOf(name: string): string | undefined;
}
