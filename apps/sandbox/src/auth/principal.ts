/**
 * Who a request or connection acts for, and the role that gives them on a workspace. The owner
 * (the admin token's login sessions; `sessionId` is the stored hash of the cookie) is "owner" on
 * every workspace. A guest (a person who joined through a share link) has one role on exactly one
 * workspace and none anywhere else; a share link makes them (`share-links.ts`).
 */
export type Role = "viewer" | "editor" | "owner";

export type Principal =
  | { kind: "owner"; sessionId: string }
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

/** The principal's role on `workspaceId`, or null when it may not see that workspace at all. */
export function roleOn(principal: Principal, workspaceId: string): Role | null {
  if (principal.kind === "owner") return "owner";
  return principal.workspaceId === workspaceId ? principal.role : null;
}

/** What a principal may do beyond any one workspace (create workspaces): only the owner. */
export function serviceRole(principal: Principal): Role {
  return principal.kind === "owner" ? "owner" : "viewer";
}

/** Connections below this role only watch: no keystrokes, no edits. */
export const WRITE_ROLE: Role = "editor";

/** How the owner is named to the people they share a workspace with (the service knows no other name). */
export const OWNER_NAME = "Owner";

/** The name other people see for `principal` (the owner has no name of their own). */
export function displayName(principal: Principal): string {
  return principal.kind === "owner" ? OWNER_NAME : principal.name;
}
