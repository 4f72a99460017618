import type { Principal } from "../auth/principal";

/** Live documents one workspace may hold at once (every tab of every person together). */
export const MAX_DOCUMENTS_PER_WORKSPACE = 64;
/**
 * Of those, guests together may bring in at most this many (documents no socket of the owner
 * holds): the rest are always there for the owner, however many guests join.
 */
export const GUEST_DOCUMENTS_SHARE = 32;

/**
 * What one person may hold in one workspace's live editing. The editor opens a socket per live
 * file, so sockets and documents go together; a guest's page that opens more is buggy or hostile,
 * and gets the classic editor for the rest. Each socket can hold a frame of up to
 * MAX_COLLAB_FRAME_BYTES while it arrives, so a guest's sockets bound what they cost.
 */
export const PERSON_LIMITS: Record<Principal["kind"], { sockets: number; documents: number }> = {
  user: { sockets: 32, documents: 32 },
  guest: { sockets: 8, documents: 8 },
};

/**
 * Bytes one person's sockets may have waiting in Hocuspocus for documents that are still
 * opening (it queues a document's messages until its load is done, and keeps them until the
 * document closes on that socket). An editor sends a few hundred bytes per document there: its
 * Auth, its state vector and its cursor.
 */
export const MAX_EARLY_BYTES_PER_PERSON = 256 * 1024;

/** One collaboration socket as the ledger sees it (its MessageGuard). */
export interface PersonSocket {
  /** Bytes this socket has waiting for documents that are not open yet. */
  readonly earlyBytes: number;
  /** Documents this socket holds: allowed to open (loading) or open. */
  heldDocuments(): Iterable<string>;
}

const personKey = (p: Principal) => `${p.kind}:${p.sessionId}`;

/**
 * Who holds what in one workspace's live editing, so that no person takes more than their
 * share: sockets, documents and bytes waiting per person, and a share of the workspace's
 * documents for all guests together, so that guests can never make the owner's opens fail.
 */
export class CollabPeople {
  private readonly sockets = new Map<string, Set<PersonSocket>>();
  /** The owner's sockets, whose documents never count against the guests' share. */
  private readonly ownerSockets = new Set<PersonSocket>();

  /** Counts `socket` as `principal`'s; false when they already have as many as they may. */
  admit(principal: Principal, socket: PersonSocket): boolean {
    const key = personKey(principal);
    const mine = this.sockets.get(key) ?? new Set();
    if (mine.size >= PERSON_LIMITS[principal.kind].sockets) return false;
    mine.add(socket);
    this.sockets.set(key, mine);
    if (principal.kind === "user") this.ownerSockets.add(socket);
    return true;
  }

  /** The socket closed: what it held is no longer anyone's. */
  leave(principal: Principal, socket: PersonSocket): void {
    const key = personKey(principal);
    const mine = this.sockets.get(key);
    mine?.delete(socket);
    if (mine?.size === 0) this.sockets.delete(key);
    this.ownerSockets.delete(socket);
  }

  /** Bytes `principal`'s sockets may still have waiting for documents that are opening. */
  earlyRoom(principal: Principal): number {
    let used = 0;
    for (const socket of this.sockets.get(personKey(principal)) ?? []) used += socket.earlyBytes;
    return MAX_EARLY_BYTES_PER_PERSON - used;
  }

  /**
   * Whether `principal` may open `document`, given the documents the workspace has loaded or is
   * loading: within their own documents, within the workspace's, and a guest within the guests'
   * share of them.
   */
  mayOpen(principal: Principal, document: string, loaded: ReadonlySet<string>): boolean {
    const mine = held(this.sockets.get(personKey(principal)) ?? []);
    if (!mine.has(document) && mine.size >= PERSON_LIMITS[principal.kind].documents) return false;
    if (loaded.has(document)) return true;
    if (loaded.size >= MAX_DOCUMENTS_PER_WORKSPACE) return false;
    if (principal.kind === "user") return true;
    const owners = held(this.ownerSockets);
    let broughtByGuests = 0;
    for (const name of loaded) if (!owners.has(name)) broughtByGuests++;
    return broughtByGuests < GUEST_DOCUMENTS_SHARE;
  }
}

function held(sockets: Iterable<PersonSocket>): Set<string> {
  const names = new Set<string>();
  for (const socket of sockets) for (const name of socket.heldDocuments()) names.add(name);
  return names;
}
