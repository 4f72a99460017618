import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../auth/principal";
import { joinShare, startTestService, type TestService, waitForStatus } from "../testing/harness";
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
const EXPECTED: Record<string, `${Role} on ${Access["on"]}`> = {
  "workspace.list": "viewer on service",
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
  "share.revoke": "owner on service",
  "presence.watch": "viewer on workspace",
  "presence.openFile": "viewer on workspace",
  "terminal.list": "viewer on workspace",
  "terminal.create": "editor on workspace",
  // Viewers write in the talk unless the owner turned that off (refused then inside `talk.send`).
  "talk.list": "viewer on workspace",
  "talk.watch": "viewer on workspace",
  "talk.send": "viewer on workspace",
  "talk.setViewersMayWrite": "owner on workspace",
  // Site administrators only (adminProcedure: an owner-level user whose site role is admin).
  "user.invite": "owner on service",
  "user.resetLink": "owner on service",
};

const RANK: Record<Role, number> = { viewer: 0, editor: 1, owner: 2 };

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
  beforeAll(async () => {
    t = await startTestService();
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
  const callers: { who: string; cookie: (t: TestService) => string | undefined; role: Role | null }[] = [
    { who: "no session", cookie: () => undefined, role: null },
    { who: "a forged session", cookie: () => "coder_session=forged", role: null },
    { who: "a malformed session cookie", cookie: () => "coder_session=%E0%A4%A", role: null },
    { who: "the owner", cookie: (t) => t.cookie, role: "owner" },
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
        const allowed =
          caller.role !== null && access !== undefined && RANK[caller.role] >= RANK[access.role];
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
