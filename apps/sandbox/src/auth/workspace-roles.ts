import type { Db } from "../db/database";
import { AccessCache } from "./access-cache";
import { guestRoleOn, type Principal, type Role } from "./principal";

type User = Extract<Principal, { kind: "user" }>;

/** How a workspace shows in its list for one caller: their role there and whose it is. */
export interface Listing {
  role: Role;
  /** Null only for a workspace whose owner's account is gone. */
  owner: { id: string; name: string } | null;
}

/** A user who holds connections on a workspace, as the sweeper asks about them. */
export interface HeldPair {
  userId: string;
  workspaceId: string;
}

const pairKey = (p: HeldPair) => `${p.userId}\n${p.workspaceId}`;

/**
 * A user's role on a workspace, from the database: owner of what they own, the role a named share
 * gives them (`workspace_members`), and owner of everything as a site admin (administration,
 * docs/security.md); nothing otherwise. The owner of workspace A is nobody on workspace B. Guests
 * keep their link's role on their one workspace. `of` is remembered for a moment (`access`), and
 * forgotten at every write that could change it: a share revoked or an account demoted counts from
 * the next call on.
 */
export class WorkspaceRoles {
  constructor(
    private readonly db: Db,
    private readonly access = AccessCache.none(),
  ) {}

  /** The principal's role on `workspaceId`, or null when it may not see that workspace at all. */
  async of(principal: Principal, workspaceId: string): Promise<Role | null> {
    if (principal.kind === "guest") return guestRoleOn(principal, workspaceId);
    const { userId } = principal;
    const row = await this.access.remember(`role\n${userId}\n${workspaceId}`, () =>
      // One indexed lookup: the workspace's primary key and the member row's (workspace, user) key.
      this.db
        .selectFrom("workspaces as w")
        .leftJoin("workspace_members as m", (j) =>
          j.onRef("m.workspace_id", "=", "w.id").on("m.user_id", "=", userId),
        )
        .select(["w.owner_id", "m.role"])
        .where("w.id", "=", workspaceId)
        .executeTakeFirst(),
    );
    return this.userRole(principal, row ?? { owner_id: null, role: null });
  }

  /**
   * The workspaces the caller sees in their list, with their role and owner: a user's own and
   * those shared with them (every workspace for an admin who asks for `all`), a guest's one.
   * `only` narrows to one workspace (a live event of the list).
   */
  async listings(principal: Principal, options: { all?: boolean; only?: string } = {}) {
    const user = principal.kind === "user" ? principal : null;
    const everything = user?.siteRole === "admin" && options.all === true;
    let query = this.db
      .selectFrom("workspaces as w")
      .leftJoin("users as u", "u.id", "w.owner_id")
      .leftJoin("workspace_members as m", (j) =>
        j.onRef("m.workspace_id", "=", "w.id").on("m.user_id", "=", user?.userId ?? ""),
      )
      .select(["w.id", "w.owner_id", "u.display_name", "m.role"]);
    if (options.only !== undefined) query = query.where("w.id", "=", options.only);
    if (principal.kind === "guest") query = query.where("w.id", "=", principal.workspaceId);
    else if (!everything)
      query = query.where((eb) =>
        eb.or([eb("w.owner_id", "=", principal.userId), eb("m.user_id", "is not", null)]),
      );
    const rows = await query.execute();
    const listings = new Map<string, Listing>();
    for (const row of rows) {
      const role = user
        ? this.userRole(user, row)
        : guestRoleOn(principal as Exclude<Principal, User>, row.id);
      if (role === null) continue;
      const owner = row.owner_id && row.display_name ? { id: row.owner_id, name: row.display_name } : null;
      listings.set(row.id, { role, owner });
    }
    return listings;
  }

  /**
   * For the (user, workspace) pairs that hold connections: whether the user still has a role there
   * (true), lost it (false), or the workspace is gone (absent). One query over all of them, the
   * sweeper's every half second.
   */
  async stillHeld(pairs: readonly HeldPair[]): Promise<Map<string, boolean>> {
    if (pairs.length === 0) return new Map();
    const users = [...new Set(pairs.map((p) => p.userId))];
    const workspaces = [...new Set(pairs.map((p) => p.workspaceId))];
    const rows = await this.db
      .selectFrom("workspaces as w")
      // Every held user beside every held workspace; the pairs not held are a few extra rows.
      .innerJoin("users as u", (j) => j.on("u.id", "in", users))
      .leftJoin("workspace_members as m", (j) =>
        j.onRef("m.workspace_id", "=", "w.id").onRef("m.user_id", "=", "u.id"),
      )
      .select((eb) => [
        "w.id as workspaceId",
        "u.id as userId",
        eb
          .or([
            eb("w.owner_id", "=", eb.ref("u.id")),
            eb("m.user_id", "is not", null),
            eb("u.site_role", "=", "admin"),
          ])
          .as("held"),
      ])
      .where("w.id", "in", workspaces)
      .execute();
    // SQLite answers 0 or 1, PostgreSQL a boolean.
    return new Map(rows.map((r) => [pairKey(r), Boolean(Number(r.held))]));
  }

  /** The key `stillHeld` answers with for a pair. */
  static key = pairKey;

  private userRole(user: User, row: { owner_id: string | null; role: Role | null }): Role | null {
    if (row.owner_id === user.userId) return "owner";
    if (row.role) return row.role;
    return user.siteRole === "admin" ? "owner" : null;
  }
}
