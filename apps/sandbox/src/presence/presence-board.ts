import { randomBytes } from "node:crypto";
import type { PresencePerson } from "@coder/protocol";
import { displayName, type Principal, type Role } from "../auth/principal";

/** Colours told apart on the IDE's dark background; a person keeps theirs while they stay. */
const PALETTE = ["#f47067", "#57ab5a", "#539bf5", "#daaa3f", "#b083f0", "#39c5cf", "#e275ad", "#dd7e3c"];

/** Tabs one person may keep on one workspace's board; a page that opens more is buggy or hostile. */
export const MAX_TABS_PER_PERSON = 16;

export class TooManyTabsError extends Error {
  constructor() {
    super(`at most ${MAX_TABS_PER_PERSON} tabs per person can be open on a workspace`);
    this.name = "TooManyTabsError";
  }
}

interface Tab {
  file: string | null;
  /** When the tab last said what it shows: the person's file is their latest tab's. */
  touched: number;
}

interface Person {
  id: string;
  name: string;
  colour: string;
  role: Role;
  tabs: Map<string, Tab>;
}

/** Everyone on one workspace, and the watchers to wake when that changes. */
class Room {
  readonly people = new Map<string, Person>();
  readonly listeners = new Set<() => void>();
  version = 0;

  changed(): void {
    this.version++;
    for (const listener of [...this.listeners]) listener();
  }

  freeColour(): string {
    const used = new Set([...this.people.values()].map((p) => p.colour));
    return PALETTE.find((c) => !used.has(c)) ?? PALETTE[this.people.size % PALETTE.length] ?? "#adbac7";
  }
}

const personKey = (p: Principal) => `${p.kind}:${p.sessionId}`;

/**
 * Who has a workspace open right now: one entry per person (their tabs together) with the name and
 * role of their login, a colour and the file their latest tab shows. A tab is on the board while
 * its `presence.watch` subscription is open, so revocation (which ends the subscription) takes
 * the guest off it too. In memory: presence is about this process's connections.
 */
export class PresenceBoard {
  private readonly rooms = new Map<string, Room>();
  private clock = 0;

  /** Puts a tab of `principal` on the workspace's board; the returned function takes it off. */
  join(workspaceId: string, principal: Principal, role: Role, clientId: string): () => void {
    const room = this.room(workspaceId);
    const key = personKey(principal);
    let person = room.people.get(key);
    if (person && !person.tabs.has(clientId) && person.tabs.size >= MAX_TABS_PER_PERSON) {
      this.release(workspaceId, room);
      throw new TooManyTabsError();
    }
    if (!person) {
      person = {
        id: randomBytes(6).toString("base64url"),
        name: displayName(principal),
        colour: room.freeColour(),
        role,
        tabs: new Map(),
      };
      room.people.set(key, person);
    }
    const tab: Tab = { file: null, touched: ++this.clock };
    person.tabs.set(clientId, tab);
    room.changed();
    const joined = person;
    return () => {
      // A reconnecting tab may have joined again under the same id: only remove this join's entry.
      if (joined.tabs.get(clientId) !== tab) return;
      joined.tabs.delete(clientId);
      if (joined.tabs.size === 0) room.people.delete(key);
      room.changed();
      this.release(workspaceId, room);
    };
  }

  /** Records the file a tab shows; a tab that is not on the board is ignored. */
  openFile(workspaceId: string, principal: Principal, clientId: string, file: string | null): void {
    const room = this.rooms.get(workspaceId);
    const tab = room?.people.get(personKey(principal))?.tabs.get(clientId);
    if (!room || !tab) return;
    tab.file = file;
    tab.touched = ++this.clock;
    room.changed();
  }

  /** The name and colour the board gives `principal` on the workspace, while they are on it. */
  identity(workspaceId: string, principal: Principal): { name: string; colour: string } | undefined {
    const person = this.rooms.get(workspaceId)?.people.get(personKey(principal));
    return person && { name: person.name, colour: person.colour };
  }

  /** The board as `viewer` sees it now, then again after every change, until `signal` aborts. */
  async *watch(
    workspaceId: string,
    viewer: Principal,
    signal: AbortSignal,
  ): AsyncGenerator<PresencePerson[], void> {
    const room = this.room(workspaceId);
    let wake: (() => void) | null = null;
    const listener = () => wake?.();
    room.listeners.add(listener);
    signal.addEventListener("abort", listener, { once: true });
    try {
      let seen = -1;
      while (!signal.aborted) {
        if (room.version !== seen) {
          // Changes that pile up while the client is slow collapse into one list.
          seen = room.version;
          yield this.list(room, viewer);
          continue;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
    } finally {
      room.listeners.delete(listener);
      signal.removeEventListener("abort", listener);
      this.release(workspaceId, room);
    }
  }

  private list(room: Room, viewer: Principal): PresencePerson[] {
    const you = room.people.get(personKey(viewer));
    return [...room.people.values()].map((person) => {
      const latest = [...person.tabs.values()].reduce((a, b) => (b.touched > a.touched ? b : a));
      return {
        id: person.id,
        name: person.name,
        colour: person.colour,
        role: person.role,
        file: latest.file,
        you: person === you,
      };
    });
  }

  private room(workspaceId: string): Room {
    let room = this.rooms.get(workspaceId);
    if (!room) {
      room = new Room();
      this.rooms.set(workspaceId, room);
    }
    return room;
  }

  /** Forgets a workspace's room once no one is on it and no one watches it. */
  private release(workspaceId: string, room: Room): void {
    if (room.people.size === 0 && room.listeners.size === 0 && this.rooms.get(workspaceId) === room) {
      this.rooms.delete(workspaceId);
    }
  }
}
