import path from "node:path";
import { type CollabUser, workspacePath } from "@coder/protocol";
import { AuthMessageType } from "@hocuspocus/common";
import { MessageType } from "@hocuspocus/server";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import { z } from "zod";
import type { GuardVerdict } from "./guard-verdict";
import { UpdateGate } from "./update-gate";

/**
 * Documents one socket may have asked for at once. Hocuspocus keeps what it knows of a refused
 * document on the socket until the socket closes, so refused ones count too.
 */
export const MAX_DOCUMENTS_PER_SOCKET = 32;

/**
 * Where a document is on this socket: its Auth went to Hocuspocus (`asked`), the service let it
 * open and it loads (`allowed`), it is open (`connected`), or Hocuspocus refused it (`refused`,
 * for good on this socket: Hocuspocus would queue whatever else came for it until the socket closes).
 */
type Phase = "asked" | "allowed" | "connected" | "refused";

interface DocumentOnSocket {
  phase: Phase;
  /** Bytes Hocuspocus queued for it before it was connected (and keeps until it closes). */
  early: number;
}

/** A document name is a canonical relative path in the workspace: what the daemon would resolve it to. */
export function isDocumentPath(name: string): boolean {
  return (
    workspacePath.safeParse(name).success &&
    name !== "." &&
    !name.startsWith("/") &&
    !name.endsWith("/") &&
    path.posix.normalize(name) === name &&
    !name.startsWith("../") &&
    name !== ".."
  );
}

const yId = z.object({ client: z.number().int().nonnegative(), clock: z.number().int().nonnegative() });
const relativePosition = z.object({
  type: yId.nullish(),
  tname: z.string().max(64).nullish(),
  item: yId.nullish(),
  assoc: z.number().int().min(-1).max(1).optional(),
});
/** The only part of a client's awareness state that is kept: where its cursor is. */
const cursorOf = z.object({
  cursor: z.object({ anchor: relativePosition, head: relativePosition }).nullable(),
});

export interface MessageGuardDeps {
  /** The person's cursor label, as the service issued it (looked up per message: it may change). */
  user(): CollabUser;
  /** Whether another socket already speaks for awareness client `clientId` in `document`. */
  clientTakenElsewhere(document: string, clientId: number): boolean;
  /** Bytes the person may still have waiting for documents that are opening (all their sockets). */
  earlyRoom(): number;
}

/**
 * Checks every frame a collaboration socket sends before Hocuspocus sees it. The browser is
 * untrusted: document names must be canonical workspace paths, a socket asks for a bounded number
 * of documents, nothing reaches Hocuspocus for a document before its Auth (Hocuspocus would queue
 * it), and what waits for a document still opening is bounded per person. Stateless broadcasts
 * (which Hocuspocus would relay to everyone) are dropped, and awareness updates are rewritten so
 * that a socket speaks only for its own client id, says only where its cursor is, and carries the
 * name and colour the service issued (the editor puts the colour into a style attribute).
 */
export class MessageGuard {
  private readonly documents = new Map<string, DocumentOnSocket>();
  private readonly clientIds = new Map<string, number>();
  private readonly clocks = new Map<string, number>();
  private early = 0;
  /** The Yjs updates this socket sends: their shape before integration, their cost after. */
  readonly updates = new UpdateGate();

  constructor(private readonly deps: MessageGuardDeps) {}

  /** Bytes Hocuspocus holds for this socket's documents that were not connected when they came. */
  get earlyBytes(): number {
    return this.early;
  }

  /** The documents this socket holds: allowed to open, or open. */
  *heldDocuments(): Iterable<string> {
    for (const [name, { phase }] of this.documents)
      if (phase === "allowed" || phase === "connected") yield name;
  }

  /** The service let `document` open on this socket (it loads now). */
  documentAllowed(document: string): void {
    const state = this.documents.get(document);
    if (state?.phase === "asked") state.phase = "allowed";
  }

  /** Hocuspocus established `document` on this socket: its frames no longer queue. */
  documentConnected(document: string): void {
    const state = this.documents.get(document);
    if (state) state.phase = "connected";
  }

  /** The document closed on this socket (by either side): Hocuspocus forgot it, with its queue. */
  documentClosed(document: string): void {
    this.early -= this.documents.get(document)?.early ?? 0;
    this.documents.delete(document);
    this.clientIds.delete(document);
    this.clocks.delete(document);
  }

  /** A frame the service sends on this socket: a refusal of a document ends it here. */
  sent(data: Uint8Array): void {
    try {
      // Every frame to every person passes here: the document's name is skipped, and decoded only
      // for a refusal (a text decode per frame was a few per cent of the service's CPU under load).
      const decoder = decoding.createDecoder(data);
      const nameBytes = decoding.readVarUint(decoder);
      decoder.pos += nameBytes;
      if (decoding.readVarUint(decoder) !== MessageType.Auth) return;
      if (decoding.readVarUint(decoder) !== AuthMessageType.PermissionDenied) return;
      const document = decoding.readVarString(decoding.createDecoder(data));
      const state = this.documents.get(document);
      if (state) state.phase = "refused";
    } catch {
      // Hocuspocus's own frames decode; nothing to learn from one that does not.
    }
  }

  /** The awareness client id this socket speaks for in `document`, once it said one. */
  clientIdIn(document: string): number | undefined {
    return this.clientIds.get(document);
  }

  check(data: Uint8Array): GuardVerdict {
    let document: string;
    let type: number;
    const decoder = decoding.createDecoder(data);
    try {
      document = decoding.readVarString(decoder);
      type = decoding.readVarUint(decoder);
    } catch {
      return { kind: "close", why: "a frame that is not a collaboration message" };
    }
    if (!isDocumentPath(document))
      return { kind: "close", why: "a document name that is not a workspace path" };
    let state = this.documents.get(document);
    if (!state) {
      // A document starts with its Auth: anything before it would wait in Hocuspocus, for nothing.
      if (type !== MessageType.Auth) return { kind: "drop" };
      if (this.documents.size >= MAX_DOCUMENTS_PER_SOCKET)
        return { kind: "close", why: `more than ${MAX_DOCUMENTS_PER_SOCKET} documents on one socket` };
      state = { phase: "asked", early: 0 };
      this.documents.set(document, state);
    }
    if (state.phase === "refused") return { kind: "drop" };
    if (state.phase !== "connected") {
      if (data.byteLength > this.deps.earlyRoom())
        return { kind: "close", why: "too much before its documents opened" };
      state.early += data.byteLength;
      this.early += data.byteLength;
    }
    switch (type) {
      case MessageType.Sync:
      case MessageType.SyncReply:
        return this.updates.check(decoder) ?? { kind: "forward", data };
      case MessageType.Auth:
      case MessageType.QueryAwareness:
        return { kind: "forward", data };
      case MessageType.CLOSE:
        // Before it is connected, Hocuspocus queues the close too: the document is closed when it says so.
        if (state.phase === "connected") this.documentClosed(document);
        return { kind: "forward", data };
      case MessageType.Awareness:
        return this.awareness(document, decoder);
      default:
        // Stateless messages (broadcast to everyone by Hocuspocus) and unknown types.
        return { kind: "drop" };
    }
  }

  private awareness(document: string, decoder: decoding.Decoder): GuardVerdict {
    // A socket speaks for one client: of its entries only the newest goes on, so a frame of many
    // repeated entries does not become a message many times its size.
    let newest: { clientId: number; clock: number; state: string } | null = null;
    try {
      const update = decoding.createDecoder(decoding.readVarUint8Array(decoder));
      const count = decoding.readVarUint(update);
      for (let i = 0; i < count; i++) {
        const clientId = decoding.readVarUint(update);
        const clock = decoding.readVarUint(update);
        const state = decoding.readVarString(update);
        newest = this.rewrite(document, clientId, clock, state) ?? newest;
      }
    } catch {
      return { kind: "close", why: "a malformed awareness update" };
    }
    if (!newest) return { kind: "drop" };
    const update = encoding.createEncoder();
    encoding.writeVarUint(update, 1);
    encoding.writeVarUint(update, newest.clientId);
    encoding.writeVarUint(update, newest.clock);
    encoding.writeVarString(update, newest.state);
    const message = encoding.createEncoder();
    encoding.writeVarString(message, document);
    encoding.writeVarUint(message, MessageType.Awareness);
    encoding.writeVarUint8Array(message, encoding.toUint8Array(update));
    return { kind: "forward", data: encoding.toUint8Array(message) };
  }

  /** One awareness entry as the service lets it through, or null when this socket may not send it. */
  private rewrite(
    document: string,
    clientId: number,
    clock: number,
    state: string,
  ): { clientId: number; clock: number; state: string } | null {
    const own = this.clientIds.get(document);
    if (own === undefined) {
      if (this.deps.clientTakenElsewhere(document, clientId)) return null;
      this.clientIds.set(document, clientId);
    } else if (own !== clientId) {
      return null;
    }
    // The service's rewrite must never look older than what it already passed on.
    const last = this.clocks.get(document) ?? -1;
    if (clock < last) return null;
    this.clocks.set(document, clock);
    let parsed: unknown;
    try {
      parsed = JSON.parse(state);
    } catch {
      return null;
    }
    if (parsed === null) return { clientId, clock, state: "null" };
    const cursor = cursorOf.safeParse(parsed);
    return {
      clientId,
      clock,
      state: JSON.stringify({ user: this.deps.user(), cursor: cursor.success ? cursor.data.cursor : null }),
    };
  }
}
