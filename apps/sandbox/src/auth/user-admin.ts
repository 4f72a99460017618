import type { Workspace } from "@coder/protocol";
import { type Limits, type LimitsOverride, readOverride, type WorkspaceSize } from "../config/limits";
import type { Db } from "../db/database";
import { FIRST_ADMIN_ID } from "../db/migrations";
import { ServiceError } from "../errors/service-error";
import type { PeopleChanges } from "./people-changes";
import type { SiteRole } from "./principal";

/** A user as the administration page shows them. */
export interface AdminUserView {
  id: string;
  email: string | null;
  displayName: string;
  siteRole: SiteRole;
  suspendedAt: string | null;
  createdAt: string;
  lastSeenAt: string | null;
  /** How many workspaces they own. */
  workspaces: number;
  /** What they may hold: the defaults with their own limits on top. */
  limits: Limits;
  /** The limits an admin set for them (empty: the defaults apply). */
  ownLimits: LimitsOverride;
}

/** A workspace as the administration page shows it: with its owner and what it takes while it runs. */
export interface AdminWorkspaceView {
  id: string;
  name: string;
  status: Workspace["status"];
  createdAt: string;
  owner: { id: string; displayName: string } | null;
  /** What it takes from the machine (the configured size of every workspace); null while it does not run. */
  use: WorkspaceSize | null;
}

export interface UserChange {
  role?: SiteRole;
  /** The user's own limits (replacing any earlier ones); null: back to the defaults. */
  limits?: LimitsOverride | null;
  suspended?: boolean;
}

export interface UserAdminDeps {
  db: Db;
  /**
   * The service-wide limits and what each running workspace takes, and the check that a workspace
   * given to someone fits theirs (workspaces/user-limits.ts).
   */
  limits: {
    defaults: Limits;
    size: WorkspaceSize;
    admitTransfer(userId: string, name: string, workspaceId: string): Promise<void>;
  };
  /** Every workspace with its status. */
  listWorkspaces(): Promise<Workspace[]>;
  /**
   * Ends every session of a user: refused from now on, and what they hold open on this instance
   * closed at once (other instances' sweepers close theirs within a second).
   */
  endSessions(userId: string): Promise<void>;
  /** Revokes every share link of a workspace; its guests' connections end. */
  revokeShares(workspaceId: string): Promise<void>;
  stopWorkspace(workspaceId: string): Promise<unknown>;
  /** Shows a workspace's change (its owner) in every open workspace list. */
  publishWorkspaceChange(workspaceId: string): Promise<void>;
  /** Where a change of the people is announced (the administration pages follow it). */
  changes: PeopleChanges;
  log(line: string): void;
}

/**
 * What an admin does to the people of the service: list them, change their site role and limits,
 * suspend them, delete them (once they own nothing) and give workspaces to someone else. The last
 * admin who is not suspended can never be demoted, suspended or deleted, so the service always
 * keeps someone who can let people in. Suspending ends the user's sessions (the session sweeper
 * closes their sockets and subscriptions on every instance within a second), revokes the share
 * links of their workspaces (their guests are out the same way) and stops their running workspaces.
 */
export class UserAdmin {
  constructor(private readonly deps: UserAdminDeps) {}

  /** Word of each change of the people, for the administration page. */
  get changes(): PeopleChanges {
    return this.deps.changes;
  }

  async list(): Promise<AdminUserView[]> {
    const { db, limits } = this.deps;
    const [users, owned] = await Promise.all([
      db.selectFrom("users").selectAll().orderBy("created_at").execute(),
      db
        .selectFrom("workspaces")
        .select(["owner_id", (eb) => eb.fn.countAll<number>().as("n")])
        .groupBy("owner_id")
        .execute(),
    ]);
    const counts = new Map(owned.map((r) => [r.owner_id, Number(r.n)]));
    return users.map((u) => {
      const own = readOverride(u.limits);
      return {
        id: u.id,
        email: u.email,
        displayName: u.display_name,
        siteRole: u.site_role,
        suspendedAt: u.suspended_at,
        createdAt: u.created_at,
        lastSeenAt: u.last_seen_at,
        workspaces: counts.get(u.id) ?? 0,
        limits: { ...limits.defaults, ...own },
        ownLimits: own,
      };
    });
  }

  async update(userId: string, change: UserChange): Promise<AdminUserView> {
    const user = await this.user(userId);
    const stillAdmin = (change.role ?? user.site_role) === "admin";
    const stillActive = !(change.suspended ?? user.suspended_at !== null);
    if (!(stillAdmin && stillActive)) await this.keepAnAdmin(user);
    const suspending = change.suspended === true && user.suspended_at === null;
    await this.deps.db
      .updateTable("users")
      .set({
        ...(change.role ? { site_role: change.role } : {}),
        ...(change.limits !== undefined
          ? {
              limits:
                change.limits && Object.keys(change.limits).length ? JSON.stringify(change.limits) : null,
            }
          : {}),
        ...(change.suspended !== undefined
          ? { suspended_at: change.suspended ? (user.suspended_at ?? new Date().toISOString()) : null }
          : {}),
      })
      .where("id", "=", userId)
      .execute();
    if (suspending) await this.endAccess(userId);
    this.deps.changes.announce();
    return this.view(userId);
  }

  /** Deletes an account that owns no workspace (any left must be deleted or given away first). */
  async remove(userId: string): Promise<void> {
    const user = await this.user(userId);
    if (user.id === FIRST_ADMIN_ID) {
      throw new ServiceError(
        "precondition",
        "the first admin holds the admin token and cannot be deleted; suspend them or make them a member instead",
      );
    }
    await this.keepAnAdmin(user);
    const owned = await this.owned(userId);
    if (owned.length > 0) {
      const n = owned.length;
      throw new ServiceError(
        "precondition",
        `${user.display_name} owns ${n} workspace${n === 1 ? "" : "s"}: delete or give away their ${n === 1 ? "workspace" : `${n} workspaces`} first`,
      );
    }
    await this.deps.db.transaction().execute(async (tx) => {
      await tx.deleteFrom("login_sessions").where("user_id", "=", userId).execute();
      await tx.deleteFrom("workspace_members").where("user_id", "=", userId).execute();
      await tx.deleteFrom("users").where("id", "=", userId).execute();
    });
    this.deps.changes.announce();
  }

  /**
   * Gives a workspace to another user, when it fits their limits; what it holds and who it is
   * shared with stay as they are. Both owners' lists show the change at once.
   */
  async transfer(workspaceId: string, userId: string): Promise<void> {
    const user = await this.user(userId);
    if (user.suspended_at !== null) {
      throw new ServiceError("precondition", `${user.display_name} is suspended: unsuspend them first`);
    }
    await this.deps.limits.admitTransfer(userId, user.display_name, workspaceId);
    await this.deps.db.transaction().execute(async (tx) => {
      const { numUpdatedRows } = await tx
        .updateTable("workspaces")
        .set({ owner_id: userId })
        .where("id", "=", workspaceId)
        .executeTakeFirst();
      if (numUpdatedRows === 0n)
        throw new ServiceError("not_found", `workspace ${workspaceId} does not exist`);
      // The owner holds every right on it: a named share of theirs there would only shadow that.
      await tx
        .deleteFrom("workspace_members")
        .where("workspace_id", "=", workspaceId)
        .where("user_id", "=", userId)
        .execute();
    });
    await this.deps.publishWorkspaceChange(workspaceId);
    // Both owners' workspace counts changed.
    this.deps.changes.announce();
  }

  /** Every workspace with its owner, status and what it takes from the machine. */
  async workspaces(): Promise<AdminWorkspaceView[]> {
    const { db, limits } = this.deps;
    const [list, rows] = await Promise.all([
      this.deps.listWorkspaces(),
      db
        .selectFrom("workspaces")
        .leftJoin("users", "users.id", "workspaces.owner_id")
        .select(["workspaces.id", "users.id as ownerId", "users.display_name as ownerName"])
        .execute(),
    ]);
    const owners = new Map(rows.map((r) => [r.id, r]));
    return list.map((w) => {
      const row = owners.get(w.id);
      return {
        id: w.id,
        name: w.name,
        status: w.status,
        createdAt: w.createdAt,
        owner: row?.ownerId ? { id: row.ownerId, displayName: row.ownerName ?? "" } : null,
        use: w.status === "running" || w.status === "starting" ? limits.size : null,
      };
    });
  }

  /**
   * A suspended user is out everywhere: their sessions go (the sweeper closes what they opened on
   * every instance), their workspaces' links are revoked and their running workspaces stop.
   */
  private async endAccess(userId: string): Promise<void> {
    const { log } = this.deps;
    // Their connections close as "logged out" before the stops below end their shells.
    await this.deps.endSessions(userId);
    const owned = await this.owned(userId);
    for (const { id } of owned) await this.deps.revokeShares(id);
    const running = owned.filter((w) => w.desired_state === "running");
    const stops = await Promise.allSettled(running.map((w) => this.deps.stopWorkspace(w.id)));
    stops.forEach((outcome, i) => {
      if (outcome.status === "rejected") {
        log(
          `suspending ${userId}: stopping workspace ${running[i]?.id}: ${(outcome.reason as Error).message}`,
        );
      }
    });
  }

  /** Refuses when `user` is the last admin who is not suspended. */
  private async keepAnAdmin(user: { id: string; site_role: SiteRole; suspended_at: string | null }) {
    if (user.site_role !== "admin" || user.suspended_at !== null) return;
    const others = await this.deps.db
      .selectFrom("users")
      .select("id")
      .where("site_role", "=", "admin")
      .where("suspended_at", "is", null)
      .where("id", "!=", user.id)
      .executeTakeFirst();
    if (!others) {
      throw new ServiceError(
        "precondition",
        "this is the last admin: make someone else an admin first, so someone can still let people in",
      );
    }
  }

  private owned(userId: string) {
    return this.deps.db
      .selectFrom("workspaces")
      .select(["id", "desired_state"])
      .where("owner_id", "=", userId)
      .execute();
  }

  private async user(userId: string) {
    const row = await this.deps.db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!row) throw new ServiceError("not_found", "there is no such user");
    return row;
  }

  private async view(userId: string): Promise<AdminUserView> {
    const found = (await this.list()).find((u) => u.id === userId);
    if (!found) throw new ServiceError("not_found", "there is no such user");
    return found;
  }
}
