import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "../db/database";

export interface HeartbeatTiming {
  /** How often an instance writes its heartbeat (and looks for dead ones). */
  beatMs: number;
  /** An instance whose heartbeat is older than this is dead: its turns are interrupted. */
  staleMs: number;
}

export const DEFAULT_HEARTBEAT: HeartbeatTiming = { beatMs: 2000, staleMs: 10_000 };

const FORGET_MS = 24 * 3600_000;

/**
 * This service process among those sharing the database: a row in `service_instances` with a
 * heartbeat. What it owns (running turns, the requests they wait on) is marked with its id; when
 * its heartbeat goes stale another instance takes over and ends them, as a restart would. Alone
 * on its database (SQLite: `shared` false) every other instance is by definition gone. Clocks of
 * instances on different hosts must agree to well within `staleMs` (NTP does).
 */
export class ServiceInstance {
  readonly id = `i${randomBytes(8).toString("hex")}`;
  private timer: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(
    private readonly db: Db,
    readonly shared: boolean,
    readonly timing: HeartbeatTiming = DEFAULT_HEARTBEAT,
    private readonly log: (line: string) => void = () => {},
  ) {}

  async start(): Promise<void> {
    const now = new Date().toISOString();
    // Rows of instances gone for long (killed, never stopped cleanly): whatever they owned counts
    // as orphaned with or without their row.
    await this.db
      .deleteFrom("service_instances")
      .where("heartbeat_at", "<", new Date(Date.now() - FORGET_MS).toISOString())
      .execute();
    if (!this.shared) await this.refuseAnotherAlive();
    await this.db
      .insertInto("service_instances")
      .values({ id: this.id, started_at: now, heartbeat_at: now })
      .execute();
    this.timer = setInterval(() => void this.beat(), this.timing.beatMs);
    this.timer.unref();
  }

  /**
   * Alone on its database means alone: two instances on one SQLite file share no transient state
   * (a workspace being created by one looks idle to the other, which stops it) and no live bus. A
   * row whose heartbeat is recent may be a process just killed, so it counts as alive only if it
   * beats again within two beats.
   */
  private async refuseAnotherAlive(): Promise<void> {
    const recent = () =>
      this.db
        .selectFrom("service_instances")
        .select(["id", "heartbeat_at"])
        .where("heartbeat_at", ">", new Date(Date.now() - this.timing.staleMs).toISOString())
        .execute();
    const seen = new Map((await recent()).map((r) => [r.id, r.heartbeat_at]));
    const until = Date.now() + 2 * this.timing.beatMs + this.timing.beatMs / 2;
    while (seen.size > 0 && Date.now() < until) {
      await sleep(this.timing.beatMs / 4);
      const rows = (await recent()).filter((r) => seen.has(r.id));
      const alive = rows.find((r) => r.heartbeat_at !== seen.get(r.id));
      if (alive)
        throw new Error(
          `another service instance (${alive.id}) is running on this SQLite database; stop it first, or give several instances one PostgreSQL database (CODER_DATABASE_URL)`,
        );
      if (rows.length === 0) return;
    }
  }

  private async beat(): Promise<void> {
    try {
      await this.db
        .updateTable("service_instances")
        .set({ heartbeat_at: new Date().toISOString() })
        .where("id", "=", this.id)
        .execute();
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.log(`instance heartbeat: ${(error as Error).message}`);
      this.failing = true;
    }
  }

  /** The ids of the instances alive now, this one included. */
  async live(): Promise<Set<string>> {
    if (!this.shared) return new Set([this.id]);
    const rows = await this.db
      .selectFrom("service_instances")
      .select("id")
      .where("heartbeat_at", ">", new Date(Date.now() - this.timing.staleMs).toISOString())
      .execute();
    return new Set([this.id, ...rows.map((r) => r.id)]);
  }

  /** Under the swarm driver: the node this instance runs on, and its node channel's host:port. */
  async announceNode(nodeId: string, address: string | null): Promise<void> {
    await this.db
      .updateTable("service_instances")
      .set({ node_id: nodeId, node_address: address })
      .where("id", "=", this.id)
      .execute();
  }

  /** The node channel (host:port) of a live instance on that Swarm node, if one answers for it. */
  async nodeChannelOf(nodeId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("service_instances")
      .select("node_address")
      .where("node_id", "=", nodeId)
      .where("node_address", "is not", null)
      .where("heartbeat_at", ">", new Date(Date.now() - this.timing.staleMs).toISOString())
      .orderBy("heartbeat_at", "desc")
      .executeTakeFirst();
    return row?.node_address ?? undefined;
  }

  /** A clean stop: the heartbeat ends and the row goes (after this instance ended its turns). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.db.deleteFrom("service_instances").where("id", "=", this.id).execute();
  }

  /** Stops beating and leaves the row, as a killed process does (tests). */
  abandon(): void {
    clearInterval(this.timer);
  }
}
