import type { IncomingMessage } from "node:http";
import {
  AccessCloseCode,
  accessRefusal,
  COLLAB_TEXT,
  CollabCloseCode,
  type CollabNote,
  CollabRefusal,
  type CollabUser,
  type FileChange,
  MAX_COLLAB_FILE_BYTES,
} from "@coder/protocol";
import {
  Connection,
  type DirectConnection,
  type Document,
  Hocuspocus,
  MessageType,
} from "@hocuspocus/server";
import * as decoding from "lib0/decoding";
import type { WebSocket } from "ws";
import * as syncProtocol from "y-protocols/sync";
import { z } from "zod";
import type { FileChangeBatch } from "../daemon/daemon-pool";
import type { Feed } from "../events/feed";
import type { SocketAccess } from "../sockets/socket-route";
import { CollabPeople } from "./collab-people";
import { GuardedSocket } from "./guarded-socket";
import { meterTransactions } from "./integration-meter";
import { type DiskAuthor, type FileAccess, LiveFile, LoadRefusal, readForDocument } from "./live-file";
import { MessageGuard, type MessageGuardDeps } from "./message-guard";
import { OutgoingBatches } from "./outgoing-batch";
import { RefusalLog } from "./refusal-log";
import type { DocumentRest, WorkspaceRests } from "./resting-documents";
import type { WorkspaceSharing } from "./shared-documents";
import { continuingFrom } from "./shared-rests";
import { UpdateBudget } from "./update-budget";
import type { WriterLease } from "./writer-lease";

/** A document stays loaded this long after its last editor left, so a quick reconnect finds it. */
const UNLOAD_GRACE_MS = 10_000;
/** Time for the close frame of a refused socket to leave before the socket is cut. */
const REFUSAL_GRACE_MS = 1000;
/** Renames are an unlink and an add: adds this recent are candidates for where a file went. */
const RENAME_WINDOW_MS = 2000;
const MAX_RENAME_CANDIDATES = 16;
/** Give the add of a rename a moment to arrive after its unlink. */
const RENAME_SETTLE_MS = 250;

/** How long a load waits for the writer on another instance to share the document's state. */
const SHARED_LOAD_MS = 10_000;
const SHARED_LOAD_POLL_MS = 50;

const collabToken = z.object({ epoch: z.string().max(64).nullable() });

/** What Hocuspocus keeps per socket and document: the socket's access and its guard. */
interface SocketContext {
  access: SocketAccess;
  guard: MessageGuard;
}

/** Hocuspocus refuses with this object: `reason` reaches the editor, nothing reaches the log twice. */
const refusal = (reason: string) => ({ reason });

/** Whether a message from the browser carries document content (a sync step 2 or an update). */
function carriesUpdate(message: Uint8Array): boolean {
  try {
    const decoder = decoding.createDecoder(message);
    decoding.readVarString(decoder);
    const type = decoding.readVarUint(decoder);
    if (type !== MessageType.Sync && type !== MessageType.SyncReply) return false;
    const step = decoding.readVarUint(decoder);
    return step === syncProtocol.messageYjsSyncStep2 || step === syncProtocol.messageYjsUpdate;
  } catch {
    return false;
  }
}

/** Hocuspocus's hooks read headers and query parameters we do not use; they get none (no cookie). */
const NO_REQUEST = { headers: {}, url: "/collab" } as IncomingMessage;

export interface WorkspaceDocumentsDeps {
  files: FileAccess;
  changes: Feed<FileChangeBatch>;
  log(line: string): void;
  /** Nothing is open any more: the owner may forget this workspace's documents. */
  idle(): void;
  /** Where unloaded documents rest, so an editor offline past the grace can sync back. */
  rests: WorkspaceRests;
  /** Set: other service instances may have the same documents open (through Redis). */
  sharing?: WorkspaceSharing;
  /** False: every update and awareness change leaves as a frame of its own (the bench's A/B switch). */
  batching?: boolean;
}

/**
 * The live documents of one workspace, served by its own Hocuspocus instance (so document names
 * are plain paths and never meet another workspace's). One document per path, loaded through the
 * daemon when the first editor opens it and unloaded when the last one has left (after a short
 * grace); changes on disk reach it from the workspace's file feed, merged once, here.
 */
export class WorkspaceDocuments {
  readonly hocuspocus: Hocuspocus;
  private readonly live = new Map<string, LiveFile>();
  /** A direct connection per loaded document keeps it loaded through the grace after its last editor. */
  private readonly holds = new Map<string, Promise<DirectConnection>>();
  /** Documents whose file went away, while the service finds out whether it moved. */
  private readonly leaving = new Set<string>();
  private readonly graces = new Map<string, NodeJS.Timeout>();
  /** Resting documents an editor's old copy asked for, until their load takes them. */
  private readonly reviving = new Map<string, DocumentRest>();
  private readonly refusals: RefusalLog;
  /** What each load of a document has accepted, and from whom. */
  private readonly budgets = new Map<string, UpdateBudget>();
  private readonly people = new CollabPeople();
  private readonly batches: OutgoingBatches | undefined;
  /** With sharing: each loaded document's writer lease, held or followed. */
  private readonly leases = new Map<string, WriterLease>();
  /** With sharing: documents whose shared state is being saved, and whether it changed meanwhile. */
  private readonly sharingState = new Map<string, { again: boolean }>();
  private recentAdds: { path: string; at: number }[] = [];
  private sockets = 0;
  private following: AbortController | undefined;

  constructor(private readonly deps: WorkspaceDocumentsDeps) {
    this.refusals = new RefusalLog(deps.log);
    this.batches = deps.batching === false ? undefined : new OutgoingBatches();
    this.hocuspocus = new Hocuspocus({
      quiet: true,
      extensions: deps.sharing ? [deps.sharing.extension] : [],
      // Writing back is LiveFile's; Hocuspocus's store debounce only delays unloading.
      debounce: 50,
      maxDebounce: 500,
      yDocOptions: { gc: true, gcFilter: () => true },
      onAuthenticate: async ({ documentName, token, context, connectionConfig }) => {
        const { access } = context as SocketContext;
        connectionConfig.readOnly = access.readOnly;
        let epoch: string | null;
        try {
          epoch = collabToken.parse(JSON.parse(token)).epoch;
        } catch {
          throw refusal(CollabRefusal.Invalid);
        }
        const file = this.live.get(documentName);
        // A copy from an earlier load shares no history with this one: merging it would double the
        // text. A resting document's copy does: it is kept aside for the load this socket starts.
        const current = file?.epoch ?? this.reviving.get(documentName)?.epoch;
        if (epoch !== null && epoch !== current) {
          if (file || (await this.deps.rests.epochOf(documentName)) !== epoch)
            throw refusal(CollabRefusal.Stale);
          const rest = await this.deps.rests.take(documentName);
          if (rest) this.reviving.set(documentName, rest);
        }
        const loaded = new Set([...this.live.keys(), ...this.hocuspocus.loadingDocuments.keys()]);
        if (!this.people.mayOpen(access.principal, documentName, loaded))
          throw refusal(CollabRefusal.TooMany);
        (context as SocketContext).guard.documentAllowed(documentName);
      },
      onLoadDocument: async ({ document, documentName }) => {
        const reviving = this.reviving.get(documentName);
        this.reviving.delete(documentName);
        try {
          const opened = await this.opening(documentName, reviving);
          const { lease } = opened;
          const file = await readForDocument(this.deps.files, documentName);
          // A writer continues the shared state the disk holds the baseline of (the last writer
          // may have died between a write and sharing it).
          const rest =
            lease?.held && opened.rest && this.deps.sharing
              ? (continuingFrom(await this.deps.sharing.rests.candidates(documentName), file.content) ??
                opened.rest)
              : opened.rest;
          const live = this.liveFile(document, documentName, file, rest, lease);
          this.live.set(documentName, live);
          // The first load anywhere: the other instances load this state, never the file anew.
          if (lease && !rest) await this.deps.rests.keep(documentName, live.rest());
          lease?.follow();
          meterTransactions(document, (origin, ms) => {
            if (origin instanceof Connection) (origin.context as SocketContext).guard.updates.spent(ms);
          });
          this.follow();
        } catch (error) {
          await this.leases.get(documentName)?.release();
          this.leases.delete(documentName);
          if (error instanceof LoadRefusal) throw refusal(error.reason);
          this.deps.log(`collab: cannot open ${documentName}: ${(error as Error).message}`);
          throw refusal("unavailable");
        }
      },
      connected: async ({ documentName, context, connection }) => {
        (context as SocketContext).guard.documentConnected(documentName);
        const file = this.live.get(documentName);
        if (!file) return;
        clearTimeout(this.graces.get(documentName));
        this.graces.delete(documentName);
        if (!this.holds.has(documentName)) {
          this.holds.set(documentName, this.hocuspocus.openDirectConnection(documentName));
        }
        connection.sendStateless(
          JSON.stringify({
            type: "hello",
            epoch: file.epoch,
            saved: file.diskHoldsDocument,
          } satisfies CollabNote),
        );
      },
      onDisconnect: async ({ documentName, document, context }) => {
        (context as SocketContext | undefined)?.guard?.documentClosed(documentName);
        if (document.connections.size === 0 && this.holds.has(documentName)) this.startGrace(documentName);
      },
      beforeHandleMessage: async ({ documentName, document, update, connection, context }) => {
        if (!carriesUpdate(update)) return;
        const tooLarge = { code: CollabCloseCode.TooLarge, reason: CollabRefusal.TooLarge };
        if (document.getText(COLLAB_TEXT).length + update.byteLength > MAX_COLLAB_FILE_BYTES + 64 * 1024)
          throw tooLarge;
        // A read-only connection's updates are never applied: they cost the document nothing.
        if (connection.readOnly) return;
        let budget = this.budgets.get(documentName);
        if (!budget) {
          budget = new UpdateBudget();
          this.budgets.set(documentName, budget);
        }
        if (!budget.take((context as SocketContext).access.principal, update.byteLength)) throw tooLarge;
      },
      beforeUnloadDocument: async ({ documentName }) => {
        await this.live
          .get(documentName)
          ?.flush()
          .catch((error: Error) =>
            this.deps.log(`collab: final write of ${documentName} failed: ${error.message}`),
          );
      },
      afterUnloadDocument: async ({ documentName }) => {
        const file = this.live.get(documentName);
        const lease = this.leases.get(documentName);
        this.leases.delete(documentName);
        // A follower's state is the writer's to keep.
        if (file && !file.isEnded && (lease?.held ?? true))
          await Promise.resolve(this.deps.rests.keep(documentName, file.rest())).catch((error: Error) =>
            this.deps.log(`collab: keeping ${documentName} failed: ${error.message}`),
          );
        await lease?.release();
        file?.end();
        this.live.delete(documentName);
        this.holds.delete(documentName);
        this.budgets.delete(documentName);
        this.checkIdle();
      },
    });
  }

  /** Serves one browser socket (it passed the route's authenticate step). */
  accept(ws: WebSocket, access: SocketAccess, user: MessageGuardDeps["user"]): void {
    const guard: MessageGuard = new MessageGuard({
      user,
      clientTakenElsewhere: (document, clientId) => this.clientTaken(document, clientId, guard),
      earlyRoom: () => this.people.earlyRoom(access.principal),
    });
    if (!this.people.admit(access.principal, guard)) {
      refuse(ws, AccessCloseCode.TooManySockets);
      return;
    }
    // What a socket is closed for is logged rate-limited per person: a guest cannot fill the log.
    const socket = new GuardedSocket(
      ws,
      guard,
      (line) => this.refusals.refused(access.principal.sessionId, line),
      this.batches,
    );
    this.sockets++;
    ws.once("close", () => {
      this.people.leave(access.principal, guard);
      this.sockets--;
      this.checkIdle();
    });
    // Hocuspocus needs only the members GuardedSocket has.
    this.hocuspocus.handleConnection(socket as unknown as WebSocket, NO_REQUEST, {
      access,
      guard,
    } satisfies SocketContext);
  }

  /** Writes pending typing of the live documents among `paths` (all when omitted) to disk. */
  async flush(paths?: readonly string[]): Promise<void> {
    await Promise.all(
      this.select(paths).map((file) =>
        file.flush().catch((error: Error) => this.deps.log(`collab: writing ${file.path}: ${error.message}`)),
      ),
    );
  }

  /**
   * An agent tool call may change `paths` (all when omitted): what changes on disk meanwhile shows
   * as the agent's, and the returned function merges them at once when the call is over.
   */
  agentChanging(paths: readonly string[] | undefined, agent: CollabUser): () => Promise<void> {
    const files = this.select(paths);
    const ends = files.map((file) => file.agentCallStarted(agent));
    return async () => {
      await this.merge(files, "agent");
      for (const end of ends) end();
    };
  }

  /** Files among `paths` (all when omitted) may have changed on disk: merge them now. */
  async diskChanged(paths: readonly string[] | undefined, author: DiskAuthor): Promise<void> {
    await this.merge(this.select(paths), author);
  }

  private async merge(files: readonly LiveFile[], author: DiskAuthor): Promise<void> {
    await Promise.all(
      files.map((file) =>
        file
          .diskChanged(author)
          .catch((error: Error) => this.deps.log(`collab: reading ${file.path}: ${error.message}`)),
      ),
    );
  }

  get paths(): string[] {
    return [...this.live.keys()];
  }

  /** Writes everything back, closes every socket's documents and lets them unload (the service stops). */
  async close(): Promise<void> {
    this.following?.abort();
    await this.flush();
    // Another instance takes over at once instead of when the leases lapse.
    await Promise.all([...this.leases.values()].map((lease) => lease.release()));
    for (const timer of this.graces.values()) clearTimeout(timer);
    this.graces.clear();
    for (const name of [...this.holds.keys()]) this.release(name);
    this.hocuspocus.closeConnections();
  }

  private select(paths: readonly string[] | undefined): LiveFile[] {
    if (!paths) return [...this.live.values()];
    // A tool names its file among what it reads and what it changes: each file is flushed once,
    // or a second write-back would wait for the first and write the typing since.
    return [...new Set(paths)].flatMap((path) => {
      const file = this.live.get(path);
      return file ? [file] : [];
    });
  }

  /**
   * Where a load starts: alone, from the rest an editor's copy asked for or the one kept here. With
   * sharing, from the shared state, and as the writer when this instance takes the document's
   * lease; else as a follower, which needs the state the writer shares when it loads first.
   */
  private async opening(
    name: string,
    reviving: DocumentRest | undefined,
  ): Promise<{ rest?: DocumentRest; lease?: WriterLease }> {
    const sharing = this.deps.sharing;
    if (!sharing) return { rest: reviving ?? (await this.deps.rests.take(name)) };
    const lease = sharing.lease(name, {
      gained: () => void this.tookOver(name),
      lost: () => {
        this.deps.log(`collab: ${name} is no longer written from this instance (its lease lapsed)`);
        this.live.get(name)?.standDown();
      },
      log: this.deps.log,
    });
    const deadline = Date.now() + SHARED_LOAD_MS;
    for (;;) {
      const writing = await lease.claim();
      const rest = await this.deps.rests.take(name);
      if (writing || rest) {
        if (writing) this.deps.log(`collab: ${name} is written from this instance (it loaded it first)`);
        this.leases.set(name, lease);
        return { rest, lease };
      }
      if (Date.now() > deadline) throw new Error("the instance writing it shared no state in time");
      await new Promise((resolve) => setTimeout(resolve, SHARED_LOAD_POLL_MS));
    }
  }

  /** This instance took a document's lease over: its file continues from the shared state. */
  private async tookOver(name: string): Promise<void> {
    const file = this.live.get(name);
    if (!file) return;
    this.deps.log(`collab: ${name} is written from this instance now (it took the lease over)`);
    try {
      await file.takeOver((await this.deps.sharing?.rests.candidates(name)) ?? []);
    } catch (error) {
      this.deps.log(`collab: taking over ${name} failed: ${(error as Error).message}`);
    }
  }

  /** The writer shares the document's state after each baseline move, one save at a time. */
  private async share(name: string, file: LiveFile): Promise<void> {
    const saving = this.sharingState.get(name);
    if (saving) {
      saving.again = true;
      return;
    }
    const state = { again: true };
    this.sharingState.set(name, state);
    try {
      while (state.again && this.leases.get(name)?.held) {
        state.again = false;
        await this.deps.rests.keep(name, file.rest());
      }
    } catch (error) {
      this.deps.log(`collab: sharing ${name} failed: ${(error as Error).message}`);
    } finally {
      this.sharingState.delete(name);
    }
  }

  private liveFile(
    document: Document,
    name: string,
    file: Awaited<ReturnType<typeof readForDocument>>,
    rest: DocumentRest | undefined,
    lease: WriterLease | undefined,
  ): LiveFile {
    const sharing = this.deps.sharing;
    return new LiveFile(
      document,
      document.awareness,
      name,
      file,
      this.deps.files,
      {
        note: (note) => document.broadcastStateless(JSON.stringify(note)),
        gone: (live) => void this.gone(name, live),
        unusable: (_live, reason) =>
          this.end(name, {
            type: "closed",
            reason,
            message:
              reason === "not-text"
                ? "The file is no longer text; it was closed."
                : "The file became too large to edit live; it was closed.",
          }),
        baselineMoved: lease ? (live) => void this.share(name, live) : undefined,
        writing: sharing && ((next) => sharing.rests.announce(name, next)),
        log: this.deps.log,
      },
      rest,
      lease && {
        get writing() {
          return lease.held;
        },
        confirm: () => lease.confirm(),
      },
    );
  }

  private clientTaken(document: string, clientId: number, asking: MessageGuard): boolean {
    const doc = this.hocuspocus.documents.get(document);
    if (!doc) return false;
    if (this.live.get(document)?.diskClientId === clientId) return true;
    for (const { clients, connection } of doc.connections.values()) {
      if ((connection.context as SocketContext).guard !== asking && clients.has(clientId)) return true;
    }
    return false;
  }

  private startGrace(name: string): void {
    clearTimeout(this.graces.get(name));
    this.graces.set(
      name,
      setTimeout(() => {
        this.graces.delete(name);
        this.release(name);
      }, UNLOAD_GRACE_MS),
    );
  }

  /** Ends a document: every editor is told why, its connections close, and it unloads. */
  private end(name: string, note: CollabNote): void {
    const file = this.live.get(name);
    file?.end();
    this.hocuspocus.documents.get(name)?.broadcastStateless(JSON.stringify(note));
    this.hocuspocus.closeConnections(name);
    clearTimeout(this.graces.get(name));
    this.graces.delete(name);
    this.release(name);
  }

  /** Lets the document unload once no editor holds it. */
  private release(name: string): void {
    const hold = this.holds.get(name);
    this.holds.delete(name);
    void hold?.then((connection) => connection.disconnect());
  }

  /** The file went away: follow it if it was renamed (a file just added holds its text), else close. */
  private async gone(name: string, file: LiveFile): Promise<void> {
    if (this.leaving.has(name)) return;
    this.leaving.add(name);
    try {
      await this.resolveGone(name, file);
    } finally {
      this.leaving.delete(name);
    }
  }

  private async resolveGone(name: string, file: LiveFile): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, RENAME_SETTLE_MS));
    if (this.live.get(name) !== file) return;
    const since = Date.now() - RENAME_WINDOW_MS - RENAME_SETTLE_MS;
    const candidates = this.recentAdds
      .filter((add) => add.at >= since && !this.live.has(add.path))
      .slice(-MAX_RENAME_CANDIDATES);
    for (const { path } of candidates) {
      const moved = await readForDocument(this.deps.files, path).catch(() => undefined);
      if (moved && moved.content === file.baselineText) {
        try {
          await file.follow(path);
        } catch {
          continue;
        }
        this.end(name, {
          type: "closed",
          reason: "renamed",
          to: path,
          message: `The file was renamed to ${path}.`,
        });
        return;
      }
    }
    this.end(name, { type: "closed", reason: "deleted", message: "The file was deleted." });
  }

  /** Follows the workspace's file feed while documents are live: each change is merged once, here. */
  private follow(): void {
    if (this.following) return;
    const abort = new AbortController();
    this.following = abort;
    void (async () => {
      try {
        for await (const event of this.deps.changes.subscribe(null, abort.signal)) {
          if (event.kind === "resync") await this.diskChanged(undefined, "disk");
          else this.onChanges(event.item.data.changes);
        }
      } catch (error) {
        this.deps.log(`collab: following file changes stopped: ${(error as Error).message}`);
      }
    })();
  }

  private onChanges(changes: readonly FileChange[]): void {
    const now = Date.now();
    const touched = new Set<string>();
    // Checked against the daemon contract on arrival (DaemonConnection).
    for (const { type, path } of changes) {
      if (type === "add") this.recentAdds.push({ path, at: now });
      if (type === "unlinkDir") {
        for (const name of this.live.keys()) if (name.startsWith(`${path}/`)) touched.add(name);
      } else if (this.live.has(path)) touched.add(path);
    }
    this.recentAdds = this.recentAdds.filter((add) => add.at >= now - RENAME_WINDOW_MS).slice(-256);
    if (touched.size > 0) void this.diskChanged([...touched], "disk");
  }

  private checkIdle(): void {
    if (this.sockets > 0 || this.live.size > 0 || this.hocuspocus.loadingDocuments.size > 0) return;
    this.following?.abort();
    this.following = undefined;
    void this.deps.sharing?.close();
    this.deps.idle();
  }
}

/**
 * Closes a socket the service will not serve, with the code that says why. Nothing it sends is
 * read any more: a page that opens sockets by the hundred gets no memory for its frames.
 */
function refuse(ws: WebSocket, code: AccessCloseCode): void {
  ws.close(code, accessRefusal(code)?.message ?? "");
  ws.pause();
  setTimeout(() => ws.terminate(), REFUSAL_GRACE_MS).unref();
}
