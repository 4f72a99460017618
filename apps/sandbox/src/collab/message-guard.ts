import path from "node:path";
import { type CollabUser, workspacePath } from "@coder/protocol";
import { MessageType } from "@hocuspocus/server";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import { z } from "zod";
import { UpdateGate } from "./update-gate";

/** Documents one socket may have open at once (a tab opens one per open file). */
export const MAX_DOCUMENTS_PER_SOCKET = 32;
/** What a socket may send for documents still opening (Hocuspocus queues it until they are loaded). */
const MAX_EARLY_BYTES = 4 * 1024 * 1024;

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

/** What to do with one frame from the browser. */
export type GuardVerdict =
  | { kind: "forward"; data: Uint8Array }
  | { kind: "drop" }
  /** A violation: the whole socket closes (log it once). */
  | { kind: "close"; why: string };

export interface MessageGuardDeps {
  /** The person's cursor label, as the service issued it (looked up per message: it may change). */
  user(): CollabUser;
  /** Whether another socket already speaks for awareness client `clientId` in `document`. */
  clientTakenElsewhere(document: string, clientId: number): boolean;
}

/**
 * Checks every frame a collaboration socket sends before Hocuspocus sees it. The browser is
 * untrusted: document names must be canonical workspace paths, a socket holds a bounded number
 * of documents and may queue a bounded amount while they load, stateless broadcasts (which
 * Hocuspocus would relay to everyone) are dropped, and awareness updates are rewritten so that a
 * socket speaks only for its own client id, says only where its cursor is, and carries the name
 * and colour the service issued (the editor puts the colour into a style attribute).
 */
export class MessageGuard {
  private readonly open = new Set<string>();
  private readonly connected = new Set<string>();
  private readonly clientIds = new Map<string, number>();
  private readonly clocks = new Map<string, number>();
  private earlyBytes = 0;
  /** The Yjs updates this socket sends: their shape before integration, their cost after. */
  readonly updates = new UpdateGate();

  constructor(private readonly deps: MessageGuardDeps) {}

  /** Hocuspocus established `document` on this socket: its frames no longer queue. */
  documentConnected(document: string): void {
    this.connected.add(document);
  }

  /** The document closed on this socket (by either side). */
  documentClosed(document: string): void {
    this.open.delete(document);
    this.connected.delete(document);
    this.clientIds.delete(document);
    this.clocks.delete(document);
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
    if (!this.open.has(document)) {
      if (this.open.size >= MAX_DOCUMENTS_PER_SOCKET)
        return { kind: "close", why: `more than ${MAX_DOCUMENTS_PER_SOCKET} documents on one socket` };
      this.open.add(document);
    }
    if (!this.connected.has(document)) {
      this.earlyBytes += data.byteLength;
      if (this.earlyBytes > MAX_EARLY_BYTES)
        return { kind: "close", why: "too much sent before documents opened" };
    }
    switch (type) {
      case MessageType.Sync:
      case MessageType.SyncReply:
        return this.updates.check(decoder) ?? { kind: "forward", data };
      case MessageType.Auth:
      case MessageType.QueryAwareness:
        return { kind: "forward", data };
      case MessageType.CLOSE:
        this.documentClosed(document);
        return { kind: "forward", data };
      case MessageType.Awareness:
        return this.awareness(document, decoder);
      default:
        // Stateless messages (broadcast to everyone by Hocuspocus) and unknown types.
        return { kind: "drop" };
    }
  }

  private awareness(document: string, decoder: decoding.Decoder): GuardVerdict {
    const entries: { clientId: number; clock: number; state: string }[] = [];
    try {
      const update = decoding.createDecoder(decoding.readVarUint8Array(decoder));
      const count = decoding.readVarUint(update);
      for (let i = 0; i < count; i++) {
        const clientId = decoding.readVarUint(update);
        const clock = decoding.readVarUint(update);
        const state = decoding.readVarString(update);
        const kept = this.rewrite(document, clientId, clock, state);
        if (kept) entries.push(kept);
      }
    } catch {
      return { kind: "close", why: "a malformed awareness update" };
    }
    if (entries.length === 0) return { kind: "drop" };
    const update = encoding.createEncoder();
    encoding.writeVarUint(update, entries.length);
    for (const entry of entries) {
      encoding.writeVarUint(update, entry.clientId);
      encoding.writeVarUint(update, entry.clock);
      encoding.writeVarString(update, entry.state);
    }
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
