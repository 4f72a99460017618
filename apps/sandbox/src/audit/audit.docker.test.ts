import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isType } from "../agent/testing/event-view";
import { type ScriptedAgent, startScriptedAgent } from "../agent/testing/scripted-agent";
import { tarGz } from "../imports/testing/archives";
import { joinShare, openTerminal, postShare, trpcClient, waitForStatus } from "../testing/harness";
import type { AuditEvent } from "./audit-log";

/**
 * The audit trail on the real stack: each act done through the service's doors (HTTP routes,
 * procedures, the terminal socket, the agent) leaves one entry naming who did it, and nothing a
 * person could sign in with ever shows in an entry or in the export.
 */
describe("the audit trail records who did what", () => {
  let agent: ScriptedAgent;
  const streams = new AbortController();
  /** Every secret the session below handled, to look for in the trail at the end. */
  const secrets: string[] = [];

  beforeAll(async () => {
    agent = await startScriptedAgent({ workspaceName: "audited", permissions: { "*": { bash: "ask" } } });
    secrets.push(agent.t.service.adminToken ?? "", agent.t.cookie.split("=")[1] ?? "");
  }, 180_000);

  afterAll(async () => {
    streams.abort();
    await agent?.close();
  });

  /** Waits for the newest entry of `action` that `matches`, as the admin reads the trail. */
  async function entry(action: AuditEvent["action"], matches: (e: AuditEvent) => boolean = () => true) {
    let found: AuditEvent | undefined;
    await expect
      .poll(
        async () => {
          const { entries } = await agent.t.api.audit.list.query({ filters: { action: action as never } });
          found = entries.find(matches);
          return found !== undefined;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    return found as AuditEvent;
  }

  it("records sign-ins with the token and the login link, failed ones, and sign-outs, with the address", async () => {
    const { t } = agent;
    const signedIn = await entry(
      "auth.signed_in",
      (e) => (e.detail as { via: string }).via === "admin token",
    );
    expect(signedIn.actor).toMatchObject({ kind: "user", id: "first-admin", name: "Owner" });
    expect(signedIn.address).toMatch(/127\.0\.0\.1/);

    const wrong = await fetch(`${t.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: t.url, "user-agent": "audit-test" },
      body: JSON.stringify({ token: "not-the-token" }),
    });
    expect(wrong.status).toBe(401);
    const failed = await entry("auth.sign_in_failed", (e) => e.userAgent === "audit-test");
    expect(failed.actor.kind).toBe("guest");

    const ticket = new URL(t.service.loginUrl).searchParams.get("t") ?? "";
    secrets.push(ticket);
    const viaLink = await fetch(t.service.loginUrl, { redirect: "manual" });
    const linkCookie = viaLink.headers.get("set-cookie")?.split(";")[0] ?? "";
    secrets.push(linkCookie.split("=")[1] ?? "");
    await entry("auth.signed_in", (e) => (e.detail as { via: string }).via === "login link");

    const out = await fetch(`${t.url}/auth/logout`, {
      method: "POST",
      headers: { cookie: linkCookie, origin: t.url },
    });
    expect(out.status).toBe(204);
    expect((await entry("auth.signed_out")).actor.name).toBe("Owner");
  });

  it("records share links created, joined (and a wrong one tried), and revoked", async () => {
    const { t, workspaceId } = agent;
    const link = await t.api.share.create.mutate({ workspaceId, role: "viewer" });
    secrets.push(link.url.split("/s/")[1] ?? "");
    const created = await entry("share.created", (e) => e.target === link.id);
    expect(created).toMatchObject({ workspaceId, actor: { kind: "user", name: "Owner" } });

    const cookie = await joinShare(t.url, link.url, "Vera");
    secrets.push(cookie.split("=")[1] ?? "");
    const joined = await entry("share.joined", (e) => e.target === link.id);
    expect(joined).toMatchObject({ workspaceId, actor: { kind: "guest", id: link.id, name: "Vera" } });

    expect((await postShare(t.url, "x".repeat(43), "Mallory")).status).toBe(403);
    await entry("auth.sign_in_failed", (e) => (e.detail as { via: string }).via === "share link");

    await t.api.share.revoke.mutate({ shareId: link.id });
    expect((await entry("share.revoked", (e) => e.target === link.id)).actor.name).toBe("Owner");
  });

  it("records who opened and closed which terminal, and from where", async () => {
    const { t, workspaceId } = agent;
    const link = await t.api.share.create.mutate({ workspaceId, role: "editor" });
    const cookie = await joinShare(t.url, link.url, "Edda");
    const terminal = await openTerminal(t.url, cookie, workspaceId, "audited");
    const opened = await entry("terminal.opened", (e) => e.target === "audited");
    expect(opened).toMatchObject({ workspaceId, actor: { kind: "guest", name: "Edda" } });
    expect(opened.address).toMatch(/127\.0\.0\.1/);
    terminal.ws.close();
    const closed = await entry("terminal.closed", (e) => e.target === "audited");
    expect(closed.actor.name).toBe("Edda");
  });

  it("records the turn of whoever prompted, the command the agent ran for them, and who approved it", async () => {
    const { t, model, workspaceId } = agent;
    const link = await t.api.share.create.mutate({ workspaceId, role: "editor" });
    const ada = trpcClient(t.url, await joinShare(t.url, link.url, "Ada"));
    const owner = await agent.session(streams.signal);
    // A command with the admin token in it: the trail keeps the command, never the token.
    const command = `echo audited ${t.service.adminToken}`;
    model.push({ toolCalls: [{ name: "bash", args: { command } }] }, { text: "Done." });
    const { turnId } = await ada.session.prompt.mutate({ sessionId: owner.id, text: "run it" });
    const turn = await entry("agent.turn", (e) => (e.detail as { turnId: string }).turnId === turnId);
    expect(turn).toMatchObject({
      workspaceId,
      target: owner.id,
      actor: { kind: "guest", id: link.id, name: "Ada" },
    });

    const asked = await owner.events.waitFor(isType("approval.asked"), 30_000);
    await t.api.session.respond.mutate({ sessionId: owner.id, requestId: asked.request.id, reply: "once" });
    const approval = await entry("agent.approval", (e) => e.target === asked.request.id);
    expect(approval).toMatchObject({
      workspaceId,
      actor: { kind: "user", name: "Owner" },
      detail: { reply: "once" },
    });

    const call = await entry("agent.tool_call", (e) => e.target === "bash");
    expect(call).toMatchObject({
      workspaceId,
      actor: { kind: "agent", name: "agent for Ada", onBehalfOf: link.id },
      detail: { exitCode: 0, ok: true },
    });
    expect((call.detail as { command: string }).command).toBe("echo audited [redacted]");
  });

  it("records a workspace imported, created, exported, stopped, started and deleted by its owner", async () => {
    const { t } = agent;
    const upload = await fetch(`${t.url}/api/uploads?name=files.tar.gz`, {
      method: "POST",
      headers: { cookie: t.cookie, origin: t.url, "content-type": "application/gzip" },
      body: new Uint8Array(tarGz([{ name: "hello.txt", content: "hi" }])),
    });
    const { uploadId } = (await upload.json()) as { uploadId: string };
    const { id } = await t.api.workspace.create.mutate({
      name: "imported",
      source: { type: "upload", uploadId },
    });
    await waitForStatus(t.api, id, "running");
    const owner = { kind: "user", id: "first-admin", name: "Owner" };
    expect(await entry("workspace.created", (e) => e.workspaceId === id)).toMatchObject({ actor: owner });
    expect(await entry("workspace.imported", (e) => e.workspaceId === id)).toMatchObject({
      actor: owner,
      detail: { source: { type: "upload" } },
    });

    const archive = await fetch(`${t.url}/api/workspaces/${id}/archive`, { headers: { cookie: t.cookie } });
    expect(archive.status).toBe(200);
    await archive.arrayBuffer();
    expect(await entry("workspace.exported", (e) => e.workspaceId === id)).toMatchObject({ actor: owner });

    await t.api.workspace.stop.mutate({ workspaceId: id });
    expect(await entry("workspace.stopped", (e) => e.workspaceId === id)).toMatchObject({ actor: owner });
    await t.api.workspace.start.mutate({ workspaceId: id });
    expect(await entry("workspace.started", (e) => e.workspaceId === id)).toMatchObject({ actor: owner });
    await t.api.workspace.delete.mutate({ workspaceId: id });
    expect(await entry("workspace.deleted", (e) => e.workspaceId === id)).toMatchObject({ actor: owner });
    // The entries outlive the workspace.
    const { entries } = await t.api.audit.list.query({ filters: { workspaceId: id } });
    expect(entries.length).toBeGreaterThanOrEqual(6);
  }, 180_000);

  /** Posts JSON to one of the service's sign-in routes, as the login and invitation pages do. */
  const post = (path: string, data: unknown) =>
    fetch(`${agent.t.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: agent.t.url, "user-agent": "audit-test" },
      body: JSON.stringify(data),
    });
  const joan = { email: "joan@example.com", password: "tidal Lantern 47 ochre", name: "Joan Clarke" };
  let joanId = "";

  it("records the invitation an admin made and the person who joined through it", async () => {
    const { t } = agent;
    const { url } = await t.api.user.invite.mutate({ email: "Joan@Example.com", role: "member" });
    const secret = url.split("/invite/")[1] ?? "";
    secrets.push(secret, joan.password);
    const invited = await entry("user.invited", (e) => e.target === joan.email);
    expect(invited).toMatchObject({ actor: { kind: "user", name: "Owner" }, detail: { role: "member" } });

    const accepted = await post("/auth/invite", { secret, displayName: joan.name, password: joan.password });
    expect(accepted.status).toBe(204);
    secrets.push(accepted.headers.get("set-cookie")?.split(";")[0]?.split("=")[1] ?? "");
    const joined = await entry("user.joined", (e) => e.actor.name === joan.name);
    expect(joined).toMatchObject({ actor: { kind: "user" }, detail: { via: "invite link" } });
    joanId = joined.actor.id ?? "";
    expect(joanId).not.toBe("");
  });

  it("records a password sign-in under the person's name, and a wrong password by the address tried", async () => {
    const ok = await post("/auth/password", { email: joan.email, password: joan.password });
    expect(ok.status).toBe(204);
    secrets.push(ok.headers.get("set-cookie")?.split(";")[0]?.split("=")[1] ?? "");
    const signedIn = await entry("auth.signed_in", (e) => (e.detail as { via: string }).via === "password");
    expect(signedIn.actor).toMatchObject({ kind: "user", id: joanId, name: joan.name });

    const wrongPassword = "not her password, a guess";
    secrets.push(wrongPassword);
    expect((await post("/auth/password", { email: joan.email, password: wrongPassword })).status).toBe(401);
    const failed = await entry(
      "auth.sign_in_failed",
      (e) => (e.detail as { via: string }).via === "password" && e.target === joan.email,
    );
    expect(failed.actor).toMatchObject({ kind: "guest", id: null });
  });

  it("records a workspace shared with a person by name, and the share ended, with the person as target", async () => {
    const { t, workspaceId } = agent;
    await t.api.share.create.mutate({ workspaceId, role: "editor", email: joan.email });
    const shared = await entry("share.created", (e) => e.target === joanId);
    expect(shared).toMatchObject({ workspaceId, actor: { name: "Owner" }, detail: { role: "editor" } });
    await t.api.share.revoke.mutate({ workspaceId, userId: joanId });
    expect(await entry("share.revoked", (e) => e.target === joanId)).toMatchObject({
      workspaceId,
      actor: { name: "Owner" },
    });
  });

  it("records what an admin did to a person: role, suspension, a reset link, a workspace given, deletion", async () => {
    const { t, workspaceId } = agent;
    const owner = { kind: "user", id: "first-admin", name: "Owner" };
    await t.api.user.update.mutate({ userId: joanId, role: "admin" });
    expect(await entry("user.updated", (e) => e.target === joanId)).toMatchObject({
      actor: owner,
      detail: { role: "admin" },
    });
    await t.api.user.update.mutate({ userId: joanId, suspended: true });
    expect(await entry("user.suspended", (e) => e.target === joanId)).toMatchObject({ actor: owner });
    await t.api.user.update.mutate({ userId: joanId, suspended: false });
    expect(await entry("user.unsuspended", (e) => e.target === joanId)).toMatchObject({ actor: owner });

    const reset = await t.api.user.resetLink.mutate({ userId: joanId });
    secrets.push(reset.url.split("/invite/")[1] ?? "");
    expect(await entry("user.reset_link", (e) => e.target === joanId)).toMatchObject({ actor: owner });

    // Given to her and back, so the workspace stays the Owner's for the tests after this one.
    await t.api.workspace.transfer.mutate({ workspaceId, userId: joanId });
    await t.api.workspace.transfer.mutate({ workspaceId, userId: "first-admin" });
    expect(await entry("workspace.transferred", (e) => e.target === joanId)).toMatchObject({
      workspaceId,
      actor: owner,
    });

    await t.api.user.delete.mutate({ userId: joanId });
    expect(await entry("user.deleted", (e) => e.target === joanId)).toMatchObject({ actor: owner });
  });

  it("keeps no token, link secret, password, session cookie or login link in any entry or in the JSONL export", async () => {
    const { t } = agent;
    await t.service.audit.settled();
    const listed: AuditEvent[] = [];
    for (let cursor: number | undefined; ; ) {
      const page = await t.api.audit.list.query({ limit: 200, ...(cursor ? { cursor } : {}) });
      listed.push(...page.entries);
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    const exported = await fetch(`${t.url}/api/audit?format=jsonl`, { headers: { cookie: t.cookie } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toMatch(/ndjson/);
    const lines = (await exported.text()).trim().split("\n");
    expect(lines).toHaveLength(listed.length);
    expect(lines.map((line) => (JSON.parse(line) as AuditEvent).id)).toEqual(listed.map((e) => e.id));
    const everything = `${JSON.stringify(listed)}\n${lines.join("\n")}`;
    for (const secret of secrets.filter((s) => s.length >= 16)) expect(everything).not.toContain(secret);
    expect(secrets.filter((s) => s.length >= 16).length).toBeGreaterThanOrEqual(6);
  });

  it("lets no guest read the trail, and no one but an admin export it", async () => {
    const { t, workspaceId } = agent;
    const link = await t.api.share.create.mutate({ workspaceId, role: "editor" });
    const cookie = await joinShare(t.url, link.url, "Gus");
    await expect(trpcClient(t.url, cookie).audit.list.query({})).rejects.toThrow(/owner role/);
    const refused = await fetch(`${t.url}/api/audit?format=jsonl`, { headers: { cookie } });
    expect(refused.status).toBe(403);
    expect((await fetch(`${t.url}/api/audit`)).status).toBe(401);
  });
});
