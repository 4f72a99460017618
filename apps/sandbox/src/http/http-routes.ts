import type { IncomingMessage, ServerResponse } from "node:http";
import { type Workspace, workspaceId } from "@coder/protocol";
import { match } from "path-to-regexp";
import { type Principal, type Role, roleAllows, serviceRole } from "../auth/principal";
import type { WorkspaceRoles } from "../auth/workspace-roles";
import { WorkspaceError } from "../workspaces/workspace-error";
import type { WorkspaceService } from "../workspaces/workspace-service";
import { json, plain } from "./http-answers";
import { HttpRefusal, httpRefusalOf } from "./http-errors";

/** What a request to a route carries once its access was granted. */
export interface RouteCall {
  req: IncomingMessage;
  res: ServerResponse;
  /** The normalised request-target (request-target.ts): read `pathname` and `searchParams`. */
  url: URL;
  /** The path pattern's `:name` segments, as sent (not decoded). */
  params: Partial<Record<string, string>>;
}

/**
 * Who may call a route, checked before its handler runs:
 * - `anyone`: no session looked up (login, share links, health, tRPC whose procedures check their own);
 * - `signed-in`: a session whose role somewhere (any user's, or a guest's on their workspace) is
 *   at least `role`, and a site admin's when `admin` is set;
 * - `workspace`: at least `role` on the workspace the path's `:workspaceId` names, which must exist.
 * `doing` names the act in the refusal ("uploading needs the editor role; you are viewer").
 */
type Access<Name, Granted> = { access: Name; handle(call: RouteCall & Granted): Promise<void> | void };
type RouteAccess =
  | Access<"anyone", unknown>
  | (Access<"signed-in", { principal: Principal }> & { role: Role; doing: string; admin?: true })
  | (Access<"workspace", { principal: Principal; workspace: Workspace }> & { role: Role; doing: string });

/**
 * One plain HTTP route: method, path pattern (path-to-regexp: `:workspaceId` one segment, `*rest`
 * the remainder), who may call it, and what serves it. A handler never checks access itself; an
 * error it throws becomes its status in one place (http-errors.ts).
 */
export type HttpRoute = RouteAccess & {
  /** `ANY`: every method is the handler's (tRPC, the health check). */
  method: "GET" | "POST" | "ANY";
  path: string;
  /**
   * The handler streams the body itself (an upload): a refusal closes the connection, since the
   * body it did not read would otherwise be taken for the next request.
   */
  unreadBody?: true;
};

export interface HttpRouterDeps {
  principalOf(req: IncomingMessage): Promise<Principal | null>;
  workspaces: WorkspaceService;
  roles: WorkspaceRoles;
}

/**
 * The role a principal holds somewhere: a user's on the service (they may make workspaces of
 * their own), a guest's on their one workspace.
 */
function bestRole(principal: Principal): Role {
  return principal.kind === "user" ? serviceRole(principal) : principal.role;
}

/**
 * Every plain HTTP request goes through here once Host, path and Origin passed the edge: the
 * method and path pick a route (another method on a known path is 405), one step grants its
 * access, and what its handler throws is answered by `httpRefusalOf`. Paths under `reserved` are
 * the service's: one the table does not name is 404, never handed to the UI.
 */
export class HttpRouter {
  private readonly routes: { route: HttpRoute; matches: ReturnType<typeof match> }[];

  constructor(
    routes: readonly HttpRoute[],
    private readonly reserved: readonly string[],
    private readonly deps: HttpRouterDeps,
  ) {
    this.routes = routes.map((route) => ({
      route,
      // Exactly as written: no case folding, no optional trailing slash, no decoding.
      matches: match(route.path, { sensitive: true, trailing: false, decode: false }),
    }));
  }

  /** Serves the request if the table or a reserved prefix covers its path; false for the UI's. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const onPath = this.routes.flatMap(({ route, matches }) => {
      const found = matches(url.pathname);
      return found ? [{ route, params: found.params as RouteCall["params"] }] : [];
    });
    const found = onPath.find(({ route }) => route.method === "ANY" || route.method === req.method);
    if (!found) {
      const methods = [...new Set(onPath.map(({ route }) => route.method))];
      if (methods.length)
        json(res, 405, { error: `use ${methods.join(" or ")}` }, { allow: methods.join(", ") });
      else if (this.reserved.some((prefix) => url.pathname.startsWith(prefix))) plain(res, 404, "not found");
      else return false;
      return true;
    }
    const { route, params } = found;
    try {
      await this.serve(route, { req, res, url, params });
    } catch (err) {
      const refusal = httpRefusalOf(err);
      if (!refusal || res.headersSent) throw err;
      json(res, refusal.status, { error: refusal.message }, route.unreadBody ? { connection: "close" } : {});
    }
    return true;
  }

  /** The one access step, then the handler with what it granted. */
  private async serve(route: HttpRoute, call: RouteCall): Promise<void> {
    if (route.access === "anyone") return route.handle(call);
    const principal = await this.deps.principalOf(call.req);
    if (!principal) throw new HttpRefusal(401, "log in first");
    if (route.access === "signed-in") {
      const role = bestRole(principal);
      if (!roleAllows(role, route.role))
        throw new HttpRefusal(403, `${route.doing} needs the ${route.role} role; you are ${role}`);
      if (route.admin && (principal.kind !== "user" || principal.siteRole !== "admin"))
        throw new HttpRefusal(403, `${route.doing} is for administrators only`);
      return route.handle({ ...call, principal });
    }
    const id = workspaceId.safeParse(call.params.workspaceId);
    if (!id.success) throw new HttpRefusal(404, "no such workspace");
    // The role first: a guest learns nothing about workspaces that are not theirs.
    const role = await this.deps.roles.of(principal, id.data);
    if (role === null) throw new HttpRefusal(403, "you have no access to that workspace");
    if (!roleAllows(role, route.role))
      throw new HttpRefusal(403, `${route.doing} needs the ${route.role} role; you are ${role}`);
    const workspace = await this.deps.workspaces.get(id.data).catch((err: unknown) => {
      if (err instanceof WorkspaceError) throw new HttpRefusal(404, "no such workspace");
      throw err;
    });
    return route.handle({ ...call, principal, workspace });
  }
}
