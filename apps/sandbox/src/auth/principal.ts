/**
 * Who a request or connection acts for, and the role that gives them on a workspace. A user signed
 * in with an account of their own (`accounts.ts`; `sessionId` is the stored hash of the cookie)
 * holds a role on the workspaces they own, those shared with them by name, and, as an admin, on all. A
 * guest (a person who joined through a share link) has one role on exactly one workspace and none
 * anywhere else; a share link makes them (`share-links.ts`).
 */
export type Role = "viewer" | "editor" | "owner";

/** What a user may do beyond workspaces: an admin manages the people of the service. */
export type SiteRole = "admin" | "member";

export type Principal =
  | { kind: "user"; sessionId: string; userId: string; name: string; siteRole: SiteRole }
  | {
      kind: "guest";
      sessionId: string;
      shareId: string;
      workspaceId: string;
      name: string;
      role: Exclude<Role, "owner">;
    };

export type PrincipalKind = Principal["kind"];

const RANK: Record<Role, number> = { viewer: 0, editor: 1, owner: 2 };

/** Whether `role` includes everything `needed` may do. */
export function roleAllows(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

/**
 * A guest's role on `workspaceId` (their one workspace, or none). A user's role comes from the
 * database (`workspace-roles.ts`): it changes while they stay signed in.
 */
export function guestRoleOn(guest: Extract<Principal, { kind: "guest" }>, workspaceId: string): Role | null {
  return guest.workspaceId === workspaceId ? guest.role : null;
}

/** What a principal may do beyond any one workspace (create workspaces): users, never guests. */
export function serviceRole(principal: Principal): Role {
  return principal.kind === "user" ? "owner" : "viewer";
}

/** Connections below this role only watch: no keystrokes, no edits. */
export const WRITE_ROLE: Role = "editor";

/** A name no guest may take: it reads as the workspace's owner. */
export const OWNER_NAME = "Owner";

/** The name other people see for `principal`: their account's display name, or a guest's chosen one. */
export function displayName(principal: Principal): string {
  return principal.name;
}
