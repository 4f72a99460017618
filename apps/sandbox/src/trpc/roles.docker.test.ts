import { AccessCloseCode } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { Accounts } from "../auth/accounts";
import { SESSION_COOKIE } from "../auth/http-auth";
import type { Role } from "../auth/principal";
import { httpRoutes } from "../http/http-route-table";
import type { HttpRoute } from "../http/http-routes";
import { socketRoutes } from "../http/socket-route-table";
import { joinShare, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { type TestUser, TestUsers } from "../testing/test-users";
import type { Access } from "./init";
import { appRouter } from "./router";

type ProcedureType = "query" | "mutation" | "subscription";

/** Every procedure of the router with its type and declared access, found by walking its definition. */
function procedures(): { path: string; type: ProcedureType; access: Access | undefined }[] {
  const record = appRouter._def.procedures as unknown as Record<
    string,
    { _def: { type: ProcedureType; meta?: { access?: Access } } }
  >;
  return Object.entries(record).map(([path, p]) => ({
    path,
    type: p._def.type,
    access: p._def.meta?.access,
  }));
}

/**
 * The role table, procedure by procedure. A procedure missing here fails the first test,
 * so a new one cannot slip in without a decision. `service`: needs no one workspace.
 */
const EXPECTED: Record<string, `${Access["role"]} on ${Access["on"]}`> = {
  "workspace.list": "viewer on service",
  "audit.list": "owner on service",
  "workspace.events": "viewer on service",
  "workspace.get": "viewer on workspace",
  "workspace.access": "viewer on workspace",
  "workspace.whoami": "viewer on service",
  "workspace.create": "owner on service",
  "workspace.start": "owner on workspace",
  "workspace.resume": "viewer on workspace",
  "workspace.stop": "owner on workspace",
  "workspace.delete": "owner on workspace",
  "workspace.retryImport": "owner on workspace",
  "files.tree": "viewer on workspace",
  "files.read": "viewer on workspace",
  "files.changes": "viewer on workspace",
  "files.list": "viewer on workspace",
  "files.search": "viewer on workspace",
  "files.image": "viewer on workspace",
  "files.write": "editor on workspace",
  "files.mkdir": "editor on workspace",
  "files.rename": "editor on workspace",
  "files.delete": "editor on workspace",
  "files.replace": "editor on workspace",
  "files.unpack": "editor on workspace",
  // Source control: viewers read the repository, editors change it.
  "git.status": "viewer on workspace",
  "git.diff": "viewer on workspace",
  "git.branches": "viewer on workspace",
  "git.log": "viewer on workspace",
  "git.indexText": "viewer on workspace",
  "git.events": "viewer on workspace",
  "git.stage": "editor on workspace",
  "git.unstage": "editor on workspace",
  "git.discard": "editor on workspace",
  "git.commit": "editor on workspace",
  "git.commitTurn": "editor on workspace",
  "git.proposeTurnMessage": "editor on workspace",
  "git.branchFromTurn": "editor on workspace",
  "git.conflict": "viewer on workspace",
  "git.checkout": "editor on workspace",
  "git.fetch": "editor on workspace",
  "git.pull": "editor on workspace",
  "git.push": "editor on workspace",
  "tools.list": "viewer on workspace",
  "tools.execute": "editor on workspace",
  "session.list": "viewer on workspace",
  "session.watchList": "viewer on workspace",
  "session.create": "editor on workspace",
  "session.get": "viewer on session",
  "session.events": "viewer on session",
  "session.turnDiff": "viewer on session",
  "session.update": "editor on session",
  "session.prompt": "editor on session",
  "session.abort": "editor on session",
  "session.respond": "editor on session",
  "session.answer": "editor on session",
  "session.revertTurn": "editor on session",
  "session.undoRevert": "editor on session",
  "session.delete": "owner on session",
  "models.list": "viewer on service",
  "lsp.servers": "viewer on service",
  "share.create": "owner on workspace",
  "share.list": "owner on workspace",
  "share.people": "owner on workspace",
  "share.revoke": "owner on service",
  "presence.watch": "viewer on workspace",
  "presence.openFile": "viewer on workspace",
  "terminal.list": "viewer on workspace",
  "terminal.create": "editor on workspace",
  // A viewer opens a port whose owner made it visible to the workspace (refused inside for a private one).
  "preview.list": "viewer on workspace",
  "preview.open": "viewer on workspace",
  "preview.setVisibility": "owner on workspace",
  // Viewers write in the talk unless the owner turned that off (refused then inside `talk.send`).
  "talk.list": "viewer on workspace",
  "talk.watch": "viewer on workspace",
  "talk.send": "viewer on workspace",
  "talk.setViewersMayWrite": "owner on workspace",
  // The administration of people and of every workspace: site admins only.
  "user.list": "admin on service",
  "user.update": "admin on service",
  "user.delete": "admin on service",
  // The admin page's live list: a ping when the people change, nothing else.
  "user.changes": "admin on service",
  "admin.workspaces": "admin on service",
  "workspace.transfer": "admin on service",
  // A user renames themselves; guests choose their name when they join.
  "profile.update": "owner on service",
  // Invitations and reset links: site admins only.
  "user.invite": "admin on service",
  "user.resetLink": "admin on service",
  // Each user's own git tokens; binding one to a workspace is its owner's.
  "gitCredential.set": "owner on service",
  "gitCredential.list": "owner on service",
  "gitCredential.delete": "owner on service",
  "gitCredential.bind": "owner on workspace",
  "gitCredential.unbind": "owner on workspace",
  "gitCredential.bindings": "owner on workspace",
};

/** A site admin may do everything an owner may, and administer the service. */
const RANK: Record<Access["role"], number> = { viewer: 0, editor: 1, owner: 2, admin: 3 };

/** The first SSE event after tRPC's `connected`: its name and data. */
async function firstEvent(body: ReadableStream<Uint8Array>): Promise<{ event: string; data: string }> {
  const decoder = new TextDecoder();
  let text = "";
  const reader = body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    text += decoder.decode(chunk.value, { stream: true });
    for (const block of text.split("\n\n").slice(0, -1)) {
      const field = (name: string) => block.match(new RegExp(`^${name}: ?(.*)$`, "m"))?.[1] ?? "";
      const event = field("event") || "message";
      if (event !== "connected") return { event, data: field("data") };
    }
  }
  return { event: "end", data: "" };
}

/**
 * Calls `path` as a browser would and returns the tRPC error code, or "ok". A subscription's
 * first event tells (the input's `lastEventId` makes every stream start with a resync at once).
 */
async function call(
  url: string,
  path: string,
  type: ProcedureType,
  input: unknown,
  cookie?: string,
): Promise<string> {
  const headers: Record<string, string> = { origin: url, ...(cookie ? { cookie } : {}) };
  if (type === "mutation") {
    const res = await fetch(`${url}/api/trpc/${path}`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(input),
    });
    return errorCode(await res.json());
  }
  const abort = new AbortController();
  const query = `input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await fetch(`${url}/api/trpc/${path}?${query}`, {
    headers: { ...headers, ...(type === "subscription" ? { accept: "text/event-stream" } : {}) },
    signal: abort.signal,
  });
  if (type !== "subscription" || !res.body) return errorCode(await res.json());
  const { event, data } = await firstEvent(res.body);
  abort.abort();
  return event === "serialized-error" ? errorCode({ error: JSON.parse(data) }) : "ok";
}

function errorCode(body: unknown): string {
  return (body as { error?: { data?: { code?: string } } }).error?.data?.code ?? "ok";
}

describe("who may call each procedure", () => {
  let t: TestService;
  let memberCookie = "";
  let suspendedCookie = "";
  beforeAll(async () => {
    t = await startTestService();
    const accounts = new Accounts(t.service.db);
    const member = await accounts.create({
      email: "mia@example.com",
      displayName: "Mia",
      siteRole: "member",
    });
    memberCookie = `${SESSION_COOKIE}=${(await t.service.auth.createSession(member.id)).cookie}`;
    const gone = await accounts.create({ email: "sam@example.com", displayName: "Sam", siteRole: "admin" });
    suspendedCookie = `${SESSION_COOKIE}=${(await t.service.auth.createSession(gone.id)).cookie}`;
    await t.service.db
      .updateTable("users")
      .set({ suspended_at: new Date().toISOString() })
      .where("id", "=", gone.id)
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses every mutation sent from another origin, even with the owner's cookie", async () => {
    const statuses: Record<string, number> = {};
    for (const { path, type } of procedures()) {
      if (type !== "mutation") continue;
      const res = await fetch(`${t.url}/api/trpc/${path}`, {
        method: "POST",
        headers: { origin: "http://evil.example", cookie: t.cookie, "content-type": "application/json" },
        body: JSON.stringify({ workspaceId: "nosuchworkspace0" }),
      });
      statuses[path] = res.status;
    }
    expect(Object.keys(statuses)).toContain("workspace.resume");
    expect(new Set(Object.values(statuses))).toEqual(new Set([403]));
  });

  it("every procedure declares the role the role table gives it", () => {
    const declared = Object.fromEntries(
      procedures().map(({ path, access }) => [path, access ? `${access.role} on ${access.on}` : "nothing"]),
    );
    expect(declared).toEqual(EXPECTED);
  });

  /**
   * Each caller with the role it holds on the workspace every call names (null: none). Guests
   * are walked below, on a workspace of their own.
   */
  const callers: {
    who: string;
    cookie: (t: TestService) => string | undefined;
    role: Access["role"] | null;
    /** A member holds no role on a workspace that is not theirs (these calls name one that does not exist). */
    onWorkspaces?: false;
  }[] = [
    { who: "no session", cookie: () => undefined, role: null },
    { who: "a forged session", cookie: () => "coder_session=forged", role: null },
    { who: "a malformed session cookie", cookie: () => "coder_session=%E0%A4%A", role: null },
    { who: "the first admin", cookie: (t) => t.cookie, role: "admin" },
    { who: "a member", cookie: () => memberCookie, role: "owner", onWorkspaces: false },
    { who: "a suspended admin", cookie: () => suspendedCookie, role: null },
  ];

  for (const caller of callers) {
    it(`lets ${caller.who} call exactly the procedures its role allows`, async () => {
      // Ids of nothing: the owner's calls pass the role check and then find nothing to change.
      const input = {
        workspaceId: "nosuchworkspace0",
        sessionId: "nosuchsession0",
        turnId: "nosuchturn0",
        requestId: "nosuchrequest0",
        path: "x",
        clientId: "rolestest0",
        lastEventId: "1",
      };
      const outcome: Record<string, string> = {};
      const wanted: Record<string, string> = {};
      for (const { path, type, access } of procedures()) {
        const code = await call(t.url, path, type, input, caller.cookie(t));
        outcome[path] = code === "UNAUTHORIZED" || code === "FORBIDDEN" ? code : "let through";
        // (A session that does not exist is not found before any role is asked for.)
        const role = access?.on === "workspace" && caller.onWorkspaces === false ? null : caller.role;
        const allowed = role !== null && access !== undefined && RANK[role] >= RANK[access.role];
        wanted[path] = allowed ? "let through" : caller.role === null ? "UNAUTHORIZED" : "FORBIDDEN";
      }
      expect(outcome).toEqual(wanted);
    });
  }
});

/** Guests log in through real share links (`/auth/share`) and call as a browser would. */
describe("what a guest may call", () => {
  let t: TestService;
  let workspaceId: string;
  let sessionId: string;
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    t = await startTestService();
    workspaceId = (await t.api.workspace.create.mutate({ name: "guests" })).id;
    const elsewhere = (await t.api.workspace.create.mutate({ name: "elsewhere" })).id;
    await waitForStatus(t.api, workspaceId, "running");
    sessionId = (await t.api.session.create.mutate({ workspaceId })).id;
    // An event in the session, so `session.events` from id 0 answers at once.
    await t.api.session.update.mutate({ sessionId, title: "roles" });
    const join = async (on: string, role: "viewer" | "editor", name: string) =>
      joinShare(t.url, (await t.api.share.create.mutate({ workspaceId: on, role })).url, name);
    cookies.viewer = await join(workspaceId, "viewer", "Vera");
    cookies.editor = await join(workspaceId, "editor", "Ed");
    cookies.elsewhere = await join(elsewhere, "editor", "Olga");
  });
  afterAll(async () => {
    await t?.close();
  });

  const guests: { who: string; login: string; role: "viewer" | "editor" | null }[] = [
    { who: "a viewer", login: "viewer", role: "viewer" },
    { who: "an editor", login: "editor", role: "editor" },
    { who: "a guest of another workspace", login: "elsewhere", role: null },
  ];

  for (const guest of guests) {
    it(`lets ${guest.who} call exactly the procedures the role table gives their role`, async () => {
      // Real ids, and inputs that stop at validation or find nothing once past the role check.
      const input = {
        workspaceId,
        sessionId,
        turnId: "nosuchturn0",
        requestId: "nosuchrequest0",
        shareId: "nosuchshare0",
        path: "x",
        clientId: "rolestest0",
        lastEventId: "0",
      };
      const outcome: Record<string, string> = {};
      const wanted: Record<string, string> = {};
      for (const { path, type, access } of procedures()) {
        const code = await call(t.url, path, type, input, cookies[guest.login]);
        outcome[path] = code === "UNAUTHORIZED" || code === "FORBIDDEN" ? code : "let through";
        // A guest holds no role beyond their one workspace (`serviceRole` of any guest: viewer).
        const role = access?.on === "service" ? "viewer" : guest.role;
        wanted[path] = access && role && RANK[role] >= RANK[access.role] ? "let through" : "FORBIDDEN";
      }
      expect(outcome).toEqual(wanted);
    });
  }
});

/**
 * People with accounts of their own, on one service: Bob owns a workspace, Vera and Ed are named
 * viewer and editor on it, Ada is a member with nothing there, Sam is suspended, and the admin
 * (the first admin) is owner of every workspace. Each walks every procedure, socket path and HTTP
 * route of the service's definitions on Bob's workspace.
 */
describe("what people with accounts may call on someone else's workspace", () => {
  let t: TestService;
  let users: TestUsers;
  let bob: TestUser;
  let workspaceId: string;
  let sessionId: string;
  const people: Record<string, TestUser> = {};
  beforeAll(async () => {
    t = await startTestService();
    users = await TestUsers.open(t);
    bob = await users.create("Bob");
    people.ada = await users.create("Ada");
    people.vera = await users.create("Vera");
    people.ed = await users.create("Ed");
    people.sam = await users.create("Sam");
    workspaceId = (await bob.api.workspace.create.mutate({ name: "bobs" })).id;
    await waitForStatus(bob.api, workspaceId, "running");
    sessionId = (await bob.api.session.create.mutate({ workspaceId })).id;
    await bob.api.session.update.mutate({ sessionId, title: "roles" });
    await bob.api.share.create.mutate({ workspaceId, role: "viewer", userId: people.vera?.userId });
    await bob.api.share.create.mutate({ workspaceId, role: "editor", email: "ED@example.com" });
    await users.suspend(people.sam?.userId ?? "");
  });
  afterAll(async () => {
    await users?.close();
    await t?.close();
  });

  const callers: { who: string; login: string; role: Role | null; signedIn: boolean }[] = [
    { who: "a member with no share on it", login: "ada", role: null, signedIn: true },
    { who: "a named viewer", login: "vera", role: "viewer", signedIn: true },
    { who: "a named editor", login: "ed", role: "editor", signedIn: true },
    { who: "a suspended user", login: "sam", role: null, signedIn: false },
  ];

  for (const caller of callers) {
    it(`lets ${caller.who} call exactly the procedures the role table gives their role there`, async () => {
      // Real ids; every call that passes its role check stops at validation or finds nothing to do.
      const input = {
        workspaceId,
        sessionId,
        turnId: "nosuchturn0",
        requestId: "nosuchrequest0",
        shareId: "nosuchshare0",
        path: "x",
        clientId: "rolestest0",
        lastEventId: "0",
      };
      const outcome: Record<string, string> = {};
      const wanted: Record<string, string> = {};
      for (const { path, type, access } of procedures()) {
        const code = await call(t.url, path, type, input, people[caller.login]?.cookie);
        outcome[path] = code === "UNAUTHORIZED" || code === "FORBIDDEN" ? code : "let through";
        // Every user may act on the service itself (make workspaces, rename themselves).
        const role = access?.on === "service" ? "owner" : caller.role;
        wanted[path] = !caller.signedIn
          ? "UNAUTHORIZED"
          : access && role && RANK[role] >= RANK[access.role]
            ? "let through"
            : "FORBIDDEN";
      }
      expect(outcome).toEqual(wanted);
    });
  }

  it("shows each person their own and shared workspaces only, with their role and the owner", async () => {
    const seen = async (who: TestUser) =>
      (await who.api.workspace.list.query()).map((w) => [w.name, w.role, w.owner?.name]);
    expect(await seen(bob)).toEqual([["bobs", "owner", "Bob"]]);
    expect(await seen(people.vera as TestUser)).toEqual([["bobs", "viewer", "Bob"]]);
    expect(await seen(people.ada as TestUser)).toEqual([]);
    // Asking for every workspace is an admin's: a member still sees only theirs.
    expect(await (people.ada as TestUser).api.workspace.list.query({ all: true })).toEqual([]);
    const admin = (await t.api.workspace.list.query({ all: true })).map((w) => [w.name, w.role]);
    expect(admin).toEqual([["bobs", "owner"]]);
  });

  it("lets an admin act as owner on another person's workspace (administration)", async () => {
    const people = await t.api.share.people.query({ workspaceId });
    expect(people.map((p) => [p.name, p.role])).toEqual([
      ["Vera", "viewer"],
      ["Ed", "editor"],
    ]);
  });

  it("refuses every socket path on Bob's workspace to a member without a share and to a suspended user, and opens them for a named viewer", async () => {
    const routes = socketRoutes(
      undefined as never,
      undefined as never,
      () => undefined,
      [],
      t.service.collab.route(() => ({ name: "x", color: "#000000", colorLight: "#00000033" })),
      t.service.audit,
    );
    const names: Record<string, string> = { terminal: "main", lsp: "bash", collab: "tab1" };
    const base = t.url.replace("http", "ws");
    const outcomes: Record<string, string> = {};
    for (const { prefix, minimumRole } of routes) {
      const url = `${base}/${prefix}/${workspaceId}/${names[prefix] ?? "x"}`;
      for (const login of ["ada", "sam", "vera"]) {
        const code = await closeCode(url, { origin: t.url, cookie: people[login]?.cookie ?? "" });
        // Past the role check a socket may still end for its own reasons (a viewer opens no new terminal).
        const refused = [`close ${AccessCloseCode.Forbidden}`, `close ${AccessCloseCode.LoggedOut}`];
        outcomes[`${login} ${prefix}`] = refused.includes(code) ? code : "let through";
      }
      expect(minimumRole).toBe("viewer");
    }
    expect(outcomes).toEqual(
      Object.fromEntries(
        routes.flatMap(({ prefix }) => [
          [`ada ${prefix}`, `close ${AccessCloseCode.Forbidden}`],
          [`sam ${prefix}`, `close ${AccessCloseCode.LoggedOut}`],
          [`vera ${prefix}`, "let through"],
        ]),
      ),
    );
  });

  it("refuses every HTTP route on Bob's workspace to a member without a share, and every signed-in route to a suspended user", async () => {
    const routes = httpRoutes({
      auth: t.service.auth,
      secureCookies: false,
      shareFailures: undefined as never,
      busy: () => false,
      trpc: () => undefined,
      audit: t.service.audit,
      uploads: undefined as never,
      driver: undefined as never,
      peopleChanges: undefined as never,
      log: () => undefined,
    }).filter((r): r is Exclude<HttpRoute, { access: "anyone" }> => r.access !== "anyone");
    expect(routes.length).toBeGreaterThan(0);
    const outcomes: Record<string, number | string> = {};
    const wanted: Record<string, number | string> = {};
    for (const route of routes) {
      const path = route.path.replace(":workspaceId", workspaceId).replace(/\*\w+/, "x");
      for (const login of ["ada", "sam"]) {
        const res = await fetch(`${t.url}${path}`, {
          method: route.method === "ANY" ? "GET" : route.method,
          headers: { origin: t.url, cookie: people[login]?.cookie ?? "", "content-length": "0" },
        });
        await res.body?.cancel();
        const key = `${login} ${route.method} ${route.path}`;
        outcomes[key] = res.status === 401 || res.status === 403 ? res.status : "let through";
        // A signed-in route needs no one workspace: Ada, a user, passes it (and fails later on the body).
        wanted[key] =
          login === "sam" ? 401 : route.access === "workspace" || route.admin ? 403 : "let through";
      }
    }
    expect(outcomes).toEqual(wanted);
  });
});

/** How an upgrade ended: `close <code>` when closed at once, `open` when it stayed open a moment. */
function closeCode(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    let timer: NodeJS.Timeout | undefined;
    ws.on("open", () => {
      // A refusal closes at once after the upgrade; an accepted socket stays.
      timer = setTimeout(() => {
        resolve("open");
        ws.close();
      }, 500);
    });
    ws.on("unexpected-response", (_req, res) => resolve(`http ${res.statusCode}`));
    ws.on("close", (code) => {
      clearTimeout(timer);
      resolve(`close ${code}`);
    });
    ws.on("error", () => resolve("error"));
  });
}
