import { createHash } from "node:crypto";
import { AGENT_COLLAB_USER, type PresencePerson } from "@coder/protocol";
import { displayName, type Principal, type Role } from "../auth/principal";
import { ServiceError } from "../errors/service-error";
import type { PresenceShare, SharedPerson } from "./presence-share";

/** Colours told apart on the IDE's dark background; a person keeps theirs while they stay. */
const PALETTE = ["#f47067", "#57ab5a", "#539bf5", "#daaa3f", "#b083f0", "#39c5cf", "#e275ad", "#dd7e3c"];

/** Tabs one person may keep on one workspace's board; a page that opens more is buggy or hostile. */
export const MAX_TABS_PER_PERSON = 16;

export class TooManyTabsError extends ServiceError {
  constructor() {
    super("too_many", `at most ${MAX_TABS_PER_PERSON} tabs per person can be open on a workspace`);
  }
}

interface Tab {
  file: string | null;
  /** When the tab last said what it shows (ms): the person's file is their latest tab's. */
  touched: number;
}

interface Person {
  name: string;
  role: Role;
  /** When they came (ms): the order and colours of the board follow it. */
  since: number;
  tabs: Map<string, Tab>;
}

/** The agent at work in one turn (its session's), for the person who prompted it. */
interface AgentAtWork {
  for: string | null;
  since: number;
  file: string | null;
  touched: number;
}

/** A person as the board shows them, from this instance's tabs and the other instances' boards. */
interface Shown extends SharedPerson {
  colour: string;
}

/** Everyone on one workspace, and the watchers to wake when that changes. */
class Room {
  readonly people = new Map<string, Person>();
  /** The turns this instance runs on the workspace, by their key. */
  readonly agents = new Map<string, AgentAtWork>();
  /** The people the other service instances have on the workspace (none when alone). */
  remote: SharedPerson[] = [];
  readonly listeners = new Set<() => void>();
  version = 0;
  /** The board of `version`: cursor labels ask for it on every awareness message. */
  private board: { version: number; people: Shown[] } | undefined;

  changed(): void {
    this.version++;
    for (const listener of [...this.listeners]) listener();
  }

  /** Whether another instance has the person on the workspace. */
  hasRemote(key: string): boolean {
    return this.remote.some((person) => person.key === key);
  }

  /** Nobody is here on this instance: no person, no agent at work. */
  get empty(): boolean {
    return this.people.size === 0 && this.agents.size === 0;
  }

  /** This instance's people (and agents at work), as the other instances are told. */
  local(): SharedPerson[] {
    const agents = [...this.agents].map(([key, agent]) => ({
      key,
      name: AGENT_COLLAB_USER.name,
      // It changes files as its prompter could, never more than an editor.
      role: "editor" as const,
      file: agent.file,
      touched: agent.touched,
      since: agent.since,
      agent: { for: agent.for },
    }));
    const people = [...this.people].map(([key, person]) => {
      const latest = [...person.tabs.values()].reduce((a, b) => (b.touched > a.touched ? b : a));
      return {
        key,
        name: person.name,
        role: person.role,
        file: latest.file,
        touched: latest.touched,
        since: person.since,
      };
    });
    return [...people, ...agents];
  }

  /**
   * Everyone, once each (a person with tabs on two instances too), in the order they came, each
   * with a colour: the one their key picks unless someone earlier has it, then the first free. The
   * same people give the same board on every instance.
   */
  shown(): Shown[] {
    if (this.board?.version !== this.version) this.board = { version: this.version, people: this.merge() };
    return this.board.people;
  }

  private merge(): Shown[] {
    const byKey = new Map<string, SharedPerson>();
    for (const person of [...this.local(), ...this.remote]) {
      const seen = byKey.get(person.key);
      if (!seen) byKey.set(person.key, person);
      else
        byKey.set(person.key, {
          ...(person.touched > seen.touched ? person : seen),
          since: Math.min(seen.since, person.since),
        });
    }
    const people = [...byKey.values()].sort((a, b) => a.since - b.since || a.key.localeCompare(b.key));
    const used = new Set<string>();
    return people.map((person) => {
      // The agent has the colour its edits show in the editors, and takes none of the people's.
      if (person.agent) return { ...person, colour: AGENT_COLLAB_USER.color };
      const own = PALETTE[hashOf(person.key) % PALETTE.length] ?? FALLBACK_COLOUR;
      const colour = used.has(own) ? (PALETTE.find((c) => !used.has(c)) ?? own) : own;
      used.add(colour);
      return { ...person, colour };
    });
  }
}

const FALLBACK_COLOUR = "#adbac7";

const personKey = (p: Principal) => `${p.kind}:${p.sessionId}`;
const agentKey = (turn: string) => `agent:${turn}`;

function hashOf(text: string): number {
  return createHash("sha256").update(text).digest().readUInt32BE(0);
}

/** What a browser may know of a person's key: stable, and no use for acting as them. */
const publicId = (key: string) =>
  createHash("sha256").update(`presence:${key}`).digest("base64url").slice(0, 12);

/**
 * Told when a person comes to a workspace (their first tab, unless another instance has them) and
 * when their last tab goes (the people's talk announces both).
 */
export interface Arrivals {
  arrived(workspaceId: string, principal: Principal, role: Role): void;
  departed(workspaceId: string, principal: Principal, role: Role): void;
}

const NO_ARRIVALS: Arrivals = { arrived: () => {}, departed: () => {} };

/** How often the boards of other instances are read again, for those that stopped without a word. */
const REMOTE_REFRESH_MS = 5000;

/**
 * Who has a workspace open right now: one entry per person (their tabs together) with the name and
 * role of their login, a colour and the file their latest tab shows. A tab is on the board while
 * its `presence.watch` subscription is open, so revocation (which ends the subscription) takes
 * the guest off it too. This instance's tabs are in memory; with a `share` (several instances on
 * one database) each instance publishes its people per workspace and shows the others' too.
 */
export class PresenceBoard {
  private readonly rooms = new Map<string, Room>();
  private lastTouched = 0;
  /** Per workspace: a publish under way, and whether another is due after it. */
  private readonly publishing = new Map<string, { again: boolean; done: Promise<void> }>();
  private closed = false;
  private readonly stopListening: () => void = () => {};
  private readonly refresher: NodeJS.Timeout | undefined;

  constructor(
    private readonly share?: PresenceShare,
    private readonly log: (line: string) => void = () => {},
    private readonly arrivals: Arrivals = NO_ARRIVALS,
  ) {
    if (!share) return;
    this.stopListening = share.listen((workspaceId) => {
      for (const id of workspaceId === null ? [...this.rooms.keys()] : [workspaceId])
        void this.readRemote(id);
    });
    this.refresher = setInterval(() => {
      for (const id of this.rooms.keys()) void this.readRemote(id);
    }, REMOTE_REFRESH_MS);
    this.refresher.unref();
  }

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
      person = { name: displayName(principal), role, since: this.now(), tabs: new Map() };
      room.people.set(key, person);
      if (!room.hasRemote(key)) this.arrivals.arrived(workspaceId, principal, role);
    }
    const tab: Tab = { file: null, touched: this.now() };
    person.tabs.set(clientId, tab);
    this.changed(workspaceId, room);
    const joined = person;
    return () => {
      // A reconnecting tab may have joined again under the same id: only remove this join's entry.
      if (joined.tabs.get(clientId) !== tab) return;
      joined.tabs.delete(clientId);
      if (joined.tabs.size === 0) {
        room.people.delete(key);
        if (!room.hasRemote(key)) this.arrivals.departed(workspaceId, principal, role);
      }
      this.changed(workspaceId, room);
      this.release(workspaceId, room);
    };
  }

  /** Records the file a tab shows; a tab that is not on the board is ignored. */
  openFile(workspaceId: string, principal: Principal, clientId: string, file: string | null): void {
    const room = this.rooms.get(workspaceId);
    const tab = room?.people.get(personKey(principal))?.tabs.get(clientId);
    if (!room || !tab) return;
    tab.file = file;
    tab.touched = this.now();
    this.changed(workspaceId, room);
  }

  /**
   * The agent starts a turn (`turn`: its session) on the workspace for `prompter` (null: nobody
   * named): it is on the board until the returned function is called.
   */
  agentArrives(workspaceId: string, turn: string, prompter: string | null): () => void {
    const room = this.room(workspaceId);
    const key = agentKey(turn);
    const now = this.now();
    const entry: AgentAtWork = { for: prompter, since: now, file: null, touched: now };
    room.agents.set(key, entry);
    this.changed(workspaceId, room);
    return () => {
      if (room.agents.get(key) !== entry) return;
      room.agents.delete(key);
      this.changed(workspaceId, room);
      this.release(workspaceId, room);
    };
  }

  /** The agent's turn `turn` reads or changes `file` now (null: no one file); ignored when it is not on the board. */
  agentAt(workspaceId: string, turn: string, file: string | null): void {
    const room = this.rooms.get(workspaceId);
    const entry = room?.agents.get(agentKey(turn));
    if (!room || !entry || entry.file === file) return;
    entry.file = file;
    entry.touched = this.now();
    this.changed(workspaceId, room);
  }

  /** The id, name and colour the board gives `principal` on the workspace, while they are on it. */
  identity(
    workspaceId: string,
    principal: Principal,
  ): { id: string; name: string; colour: string } | undefined {
    const key = personKey(principal);
    const person = this.rooms
      .get(workspaceId)
      ?.shown()
      .find((p) => p.key === key);
    return person && { id: publicId(person.key), name: person.name, colour: person.colour };
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
    if (room.listeners.size === 1) void this.readRemote(workspaceId);
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

  /** Stops following the other instances and takes this one's people off their boards. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopListening();
    clearInterval(this.refresher);
    await Promise.all([...this.publishing.values()].map((p) => p.done));
    await this.share?.clear().catch((error: Error) => this.log(`presence: ${error.message}`));
  }

  private list(room: Room, viewer: Principal): PresencePerson[] {
    const you = personKey(viewer);
    return room.shown().map((person) => ({
      id: publicId(person.key),
      name: person.name,
      colour: person.colour,
      role: person.role,
      file: person.file,
      you: person.key === you,
      ...(person.agent ? { agent: person.agent } : {}),
    }));
  }

  /** A moment later than the last one (ms): the order of joins and file reports stays strict. */
  private now(): number {
    this.lastTouched = Math.max(Date.now(), this.lastTouched + 1);
    return this.lastTouched;
  }

  private changed(workspaceId: string, room: Room): void {
    room.changed();
    if (this.share && !this.closed) this.publish(workspaceId);
  }

  /** Tells the other instances who is here; publishes one at a time per workspace, the latest last. */
  private publish(workspaceId: string): void {
    const running = this.publishing.get(workspaceId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: true, done: Promise.resolve() };
    state.done = (async () => {
      while (state.again) {
        state.again = false;
        const people = this.rooms.get(workspaceId)?.local() ?? [];
        await this.share
          ?.publish(workspaceId, people)
          .catch((error: Error) => this.log(`presence: ${error.message}`));
      }
      this.publishing.delete(workspaceId);
    })();
    this.publishing.set(workspaceId, state);
  }

  private async readRemote(workspaceId: string): Promise<void> {
    if (!this.share) return;
    try {
      const remote = await this.share.others(workspaceId);
      const room = this.rooms.get(workspaceId);
      if (!room || JSON.stringify(remote) === JSON.stringify(room.remote)) return;
      room.remote = remote;
      room.changed();
    } catch (error) {
      this.log(`presence: ${(error as Error).message}`);
    }
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
    if (room.empty && room.listeners.size === 0 && this.rooms.get(workspaceId) === room) {
      this.rooms.delete(workspaceId);
    }
  }
}
