import type { TalkLine, TalkUpdate } from "@coder/protocol";
import type { Principal, Role } from "../auth/principal";
import type { Db } from "../db/database";
import { ServiceError } from "../errors/service-error";
import type { LiveBus } from "../events/live-bus";
import { noticeWakeups } from "../events/notice-wakeups";
import { type PeopleNotice, PeopleNotices } from "./people-notices";
import { SendRate } from "./send-rate";
import { type Speaker, speakerOf, userSpeaker } from "./speaker";
import { type StoredLine, TalkStore } from "./talk-store";

/** A viewer wrote while the owner had turned viewers' writing off. */
export class ViewersMayNotWriteError extends ServiceError {
  constructor() {
    super("forbidden", "the owner has turned off writing for viewers in this workspace");
  }
}

/** A new batch of lines for one watcher, and the id to resume after. */
export interface TalkBatch {
  lastId: number | null;
  update: TalkUpdate;
}

const mayWrite = (role: Role, viewersMayWrite: boolean) => role !== "viewer" || viewersMayWrite;

/**
 * The people's talk of a workspace (not the agent's chat): messages from everyone with a role on
 * it, and notices of people joining, leaving and losing access. Stored with the workspace
 * (talk-store.ts); every instance's watchers hear of a new line through the live bus (topic
 * `talk`) and read it from the database.
 */
export class TalkService {
  private readonly store: TalkStore;
  private readonly rate = new SendRate();
  private readonly people: PeopleNotices;

  constructor(
    db: Db,
    private readonly bus: LiveBus,
    private readonly log: (line: string) => void,
    leaveGraceMs?: number,
  ) {
    this.store = new TalkStore(db);
    this.people = new PeopleNotices((workspaceId, notice, person) => {
      // A notice is news, not a promise: a workspace deleted meanwhile takes it with it.
      this.postNotice(workspaceId, notice, person).catch((error: Error) =>
        this.log(`talk: a ${notice} notice was not stored: ${error.message}`),
      );
    }, leaveGraceMs);
  }

  /** Stores the caller's message (after the rate and the owner's setting allowed it) and tells the watchers. */
  async send(workspaceId: string, principal: Principal, role: Role, text: string): Promise<TalkLine> {
    const speaker = speakerOf(principal, role);
    await this.rate.take(workspaceId, speaker.key);
    const line = await this.store.append(workspaceId, "message", speaker, text, (viewersMayWrite) => {
      if (!mayWrite(role, viewersMayWrite)) throw new ViewersMayNotWriteError();
    });
    await this.announce(workspaceId);
    return shown(line, speaker);
  }

  /** The lines after `afterId` (null: all kept ones) and who may write, as the caller sees them. */
  async list(
    workspaceId: string,
    principal: Principal,
    role: Role,
    afterId: number | null,
  ): Promise<TalkUpdate> {
    return (await this.read(workspaceId, speakerOf(principal, role), afterId)).update;
  }

  /**
   * The lines after `afterId` (null: all kept ones), then each new batch of lines or change of the
   * setting, as any instance commits them, until `signal` aborts.
   */
  async *watch(
    workspaceId: string,
    principal: Principal,
    role: Role,
    afterId: number | null,
    signal: AbortSignal,
  ): AsyncGenerator<TalkBatch> {
    const viewer = speakerOf(principal, role);
    let lastId = afterId;
    let setting: boolean | undefined;
    for await (const _ of noticeWakeups(this.bus, "talk", workspaceId, signal)) {
      const batch = await this.read(workspaceId, viewer, lastId);
      if (batch.update.lines.length === 0 && batch.update.viewersMayWrite === setting) continue;
      lastId = batch.lastId;
      setting = batch.update.viewersMayWrite;
      yield batch;
    }
  }

  async setViewersMayWrite(workspaceId: string, allowed: boolean): Promise<void> {
    await this.store.setViewersMayWrite(workspaceId, allowed);
    await this.announce(workspaceId);
  }

  /** A person's first tab opened the workspace (presence). */
  arrived(workspaceId: string, principal: Principal, role: Role): void {
    this.people.arrived(workspaceId, speakerOf(principal, role));
  }

  /** A person's last tab on the workspace closed (presence). */
  departed(workspaceId: string, principal: Principal, role: Role): void {
    this.people.departed(workspaceId, speakerOf(principal, role));
  }

  /** Guests whose link was just revoked. */
  revoked(workspaceId: string, guests: readonly Extract<Principal, { kind: "guest" }>[]): void {
    for (const guest of guests) this.people.revoked(workspaceId, speakerOf(guest, guest.role));
  }

  /** A person whose named share was just ended. */
  memberRevoked(workspaceId: string, member: { userId: string; name: string; role: Role }): void {
    this.people.revoked(workspaceId, userSpeaker(member.userId, member.name, member.role));
  }

  /** Stops waiting departures. */
  close(): void {
    this.people.close();
  }

  private async postNotice(workspaceId: string, notice: PeopleNotice, person: Speaker): Promise<void> {
    await this.store.append(workspaceId, notice, person, null);
    await this.announce(workspaceId);
  }

  private async read(workspaceId: string, viewer: Speaker, afterId: number | null): Promise<TalkBatch> {
    const [lines, viewersMayWrite] = await Promise.all([
      this.store.lines(workspaceId, afterId),
      this.store.viewersMayWrite(workspaceId),
    ]);
    return {
      lastId: lines.at(-1)?.id ?? afterId,
      update: {
        lines: lines.map((line) => shown(line, viewer)),
        viewersMayWrite,
        youMayWrite: mayWrite(viewer.role, viewersMayWrite),
      },
    };
  }

  private async announce(workspaceId: string): Promise<void> {
    // The line is stored: a lost notice only delays the other instances' watchers until the next one.
    await this.bus.notify("talk", workspaceId).catch(() => {});
  }
}

/** A stored line as `viewer` is sent it: the person's key stays in the service. */
function shown(line: StoredLine, viewer: Speaker): TalkLine {
  const { key, ...person } = line.speaker;
  return { id: line.id, kind: line.kind, person, text: line.text, at: line.at, mine: key === viewer.key };
}
