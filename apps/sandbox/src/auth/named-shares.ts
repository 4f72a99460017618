import { AccessCloseCode } from "@coder/protocol";
import type { Db } from "../db/database";
import { ServiceError } from "../errors/service-error";
import { normalEmail } from "./accounts";
import type { ConnectionRegistry } from "./connection-registry";

type MemberRole = "viewer" | "editor";

/** A person whose named share was just ended. */
export interface RevokedMember {
  userId: string;
  name: string;
  role: "viewer" | "editor";
}

/** Who a workspace is shared with by name, as its owner sees them. */
export interface MemberView {
  userId: string;
  name: string;
  email: string | null;
  role: MemberRole;
  createdAt: string;
  /** How many sockets and subscriptions they hold open on this workspace right now. */
  openConnections: number;
}

/** The person a named share is for: an account id, or the e-mail address of one. */
export type ShareTarget = { userId: string } | { email: string };

/**
 * Sharing a workspace with a person by name (a `workspace_members` row): they see it in their
 * list and open it with the row's role, under their own account, until the owner revokes it.
 * Beside the anonymous links of `share-links.ts`; an account is never made here (an admin invites).
 */
export class NamedShares {
  constructor(
    private readonly db: Db,
    private readonly connections: ConnectionRegistry,
  ) {}

  /** Gives the person `role` on the workspace (or changes the role they had); returns who it is. */
  async share(workspaceId: string, target: ShareTarget, role: MemberRole): Promise<MemberView> {
    const person = await this.person(target);
    const workspace = await this.db
      .selectFrom("workspaces")
      .select("owner_id")
      .where("id", "=", workspaceId)
      .executeTakeFirst();
    if (!workspace) throw new ServiceError("not_found", "there is no such workspace");
    if (workspace.owner_id === person.id) {
      throw new ServiceError("bad_request", `${person.display_name} owns this workspace already`);
    }
    const createdAt = new Date().toISOString();
    await this.db
      .insertInto("workspace_members")
      .values({ workspace_id: workspaceId, user_id: person.id, role, created_at: createdAt })
      .onConflict((oc) => oc.columns(["workspace_id", "user_id"]).doUpdateSet({ role }))
      .execute();
    return (await this.people(workspaceId)).find((m) => m.userId === person.id) as MemberView;
  }

  /** The people the workspace is shared with by name, in the order they were added. */
  async people(workspaceId: string): Promise<MemberView[]> {
    const rows = await this.db
      .selectFrom("workspace_members as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select(["u.id", "u.display_name", "u.email", "m.role", "m.created_at"])
      .where("m.workspace_id", "=", workspaceId)
      .orderBy("m.created_at")
      .execute();
    const open = new Map<string, number>();
    for (const held of this.connections.held()) {
      if (held.principal.kind === "user" && held.workspaceId === workspaceId)
        open.set(held.principal.userId, (open.get(held.principal.userId) ?? 0) + held.open);
    }
    return rows.map((r) => ({
      userId: r.id,
      name: r.display_name,
      email: r.email,
      role: r.role,
      createdAt: r.created_at,
      openConnections: open.get(r.id) ?? 0,
    }));
  }

  /**
   * Ends the person's share and, on this instance at once, their sockets and subscriptions on the
   * workspace (other instances end theirs at their sweeper's next pass); who it was and the role
   * they had, or null when there was no such share.
   */
  async revoke(workspaceId: string, userId: string): Promise<RevokedMember | null> {
    const member = await this.db
      .selectFrom("workspace_members as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select(["u.display_name", "m.role"])
      .where("m.workspace_id", "=", workspaceId)
      .where("m.user_id", "=", userId)
      .executeTakeFirst();
    await this.db
      .deleteFrom("workspace_members")
      .where("workspace_id", "=", workspaceId)
      .where("user_id", "=", userId)
      .execute();
    this.endConnections(userId, workspaceId);
    return member ? { userId, name: member.display_name, role: member.role } : null;
  }

  /** Ends `userId`'s sockets and subscriptions on `workspaceId` (their role there is gone); how many. */
  endConnections(
    userId: string,
    workspaceId: string,
    code: AccessCloseCode = AccessCloseCode.ShareRevoked,
  ): number {
    return this.connections.endOn((p) => p.kind === "user" && p.userId === userId, workspaceId, code);
  }

  private async person(target: ShareTarget) {
    const query = this.db.selectFrom("users").select(["id", "display_name"]);
    const found =
      "userId" in target
        ? await query.where("id", "=", target.userId).executeTakeFirst()
        : await query.where("email", "=", normalEmail(target.email)).executeTakeFirst();
    if (!found) {
      throw new ServiceError(
        "not_found",
        "userId" in target
          ? "there is no such account"
          : `there is no account for ${normalEmail(target.email)}; invite them first`,
      );
    }
    return found;
  }
}
