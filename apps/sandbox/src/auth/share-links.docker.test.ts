import { setTimeout as sleep } from "node:timers/promises";
import { AccessCloseCode } from "@coder/protocol";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type WebSocket from "ws";
import { SHARE_LINK_REFUSED } from "../http/auth-routes";
import {
  joinShare,
  openTerminal,
  postShare,
  startTestService,
  type TestService,
  trpcClient,
  waitForStatus,
} from "../testing/harness";

/** The close code the socket ends with, or null if it is still open after `ms`. */
function closeCode(ws: WebSocket, ms: number): Promise<number | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    ws.once("close", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** The tRPC error code of a failed call, or "ok". */
async function outcome(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => "ok",
    (e: unknown) => (e instanceof TRPCClientError ? String(e.data?.code) : String(e)),
  );
}

/** Opens `workspace.events` over SSE as a browser would; resolves `ended` when the stream ends. */
async function openSubscription(url: string, cookie: string): Promise<{ ended: Promise<void> }> {
  const input = encodeURIComponent(JSON.stringify({}));
  const res = await fetch(`${url}/api/trpc/workspace.events?input=${input}`, {
    headers: { cookie, origin: url, accept: "text/event-stream" },
  });
  const reader = res.body?.getReader();
  if (!reader) throw new Error("the subscription has no body");
  const ended = (async () => {
    try {
      while (!(await reader.read()).done) {
        // Keep reading until the service ends the stream.
      }
    } catch {
      // A cut connection ends it too.
    }
  })();
  return { ended };
}

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition never held");
    await sleep(50);
  }
}

describe("sharing a workspace by link", () => {
  let t: TestService;
  let id: string;
  let other: string;
  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "shared" })).id;
    other = (await t.api.workspace.create.mutate({ name: "private" })).id;
    await waitForStatus(t.api, id, "running");
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A viewer watches a terminal the owner opened (a viewer starts none). */
  async function watchTerminal(cookie: string, name: string) {
    const opened = await openTerminal(t.url, t.cookie, id, name);
    await opened.waitFor(/\$ /);
    return openTerminal(t.url, cookie, id, name);
  }
  it("a guest who joins with a name sees only the shared workspace, and the owner's list shows them and their open terminal", async () => {
    const viewer = await t.api.share.create.mutate({ workspaceId: id, role: "viewer" });
    const editor = await t.api.share.create.mutate({ workspaceId: id, role: "editor" });
    expect(viewer.url.startsWith(`${t.url}/s/`)).toBe(true);
    expect(viewer.expiresAt).toBeNull();
    expect(editor.role).toBe("editor");

    const res = await postShare(t.url, viewer.url.split("/s/")[1] ?? "", "  Ada  ");
    expect(res.status).toBe(204);
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^coder_session=.+HttpOnly.+SameSite=Lax/);
    const ada = setCookie.split(";")[0] ?? "";
    const guest = trpcClient(t.url, ada);
    expect((await guest.workspace.list.query()).map((w) => w.id)).toEqual([id]);
    expect(await outcome(guest.workspace.get.query({ workspaceId: other }))).toBe("FORBIDDEN");

    const term = await watchTerminal(ada, "ada");
    await until(async () => {
      const links = await t.api.share.list.query({ workspaceId: id });
      return links.find((l) => l.id === viewer.id)?.openConnections === 1;
    });
    const links = await t.api.share.list.query({ workspaceId: id });
    expect(links.map((l) => [l.role, l.joined, l.revokedAt])).toEqual([
      ["viewer", ["Ada"], null],
      ["editor", [], null],
    ]);
    // The list never carries a secret.
    expect(JSON.stringify(links)).not.toContain(viewer.url.split("/s/")[1]);
    term.ws.close();
  });

  it("revoking a link closes its guest's open terminal with 'this link was revoked', ends their live updates and refuses their next request", async () => {
    const link = await t.api.share.create.mutate({ workspaceId: id, role: "editor" });
    const cookie = await joinShare(t.url, link.url, "Grace");
    const term = await openTerminal(t.url, cookie, id, "grace");
    const events = await openSubscription(t.url, cookie);
    await until(
      async () =>
        (await t.api.share.list.query({ workspaceId: id })).find((l) => l.id === link.id)?.openConnections ===
        2,
    );
    const closed = closeCode(term.ws, 1_000);
    await t.api.share.revoke.mutate({ shareId: link.id });
    expect(await closed).toBe(AccessCloseCode.LinkRevoked);
    // The live subscription ends too (it would otherwise stay open for as long as the page does).
    await events.ended;

    expect(await outcome(trpcClient(t.url, cookie).workspace.list.query())).toBe("UNAUTHORIZED");
    const again = await postShare(t.url, link.url.split("/s/")[1] ?? "", "Grace");
    expect([again.status, await again.json()]).toEqual([403, { error: SHARE_LINK_REFUSED }]);
    const listed = (await t.api.share.list.query({ workspaceId: id })).find((l) => l.id === link.id);
    expect(listed?.revokedAt).not.toBeNull();
  });

  it("when a link expires its guest's terminal closes with 'this link expired' and no one can join any more", async () => {
    const link = await t.api.share.create.mutate({ workspaceId: id, role: "viewer", expiresInSeconds: 2 });
    const cookie = await joinShare(t.url, link.url, "Linus");
    const term = await watchTerminal(cookie, "linus");
    // Expiry is seen by the sweeper (every half second) once the expiry time has passed.
    expect(await closeCode(term.ws, 10_000)).toBe(AccessCloseCode.LinkExpired);

    expect(await outcome(trpcClient(t.url, cookie).workspace.list.query())).toBe("UNAUTHORIZED");
    const again = await postShare(t.url, link.url.split("/s/")[1] ?? "", "Linus");
    expect([again.status, await again.json()]).toEqual([403, { error: SHARE_LINK_REFUSED }]);
  });

  it("a wrong secret gets the same plain message as a revoked or expired one", async () => {
    const res = await postShare(t.url, "not-a-secret-of-any-link", "Mallory");
    expect([res.status, await res.json()]).toEqual([403, { error: SHARE_LINK_REFUSED }]);
  });

  it("after its workspace is deleted a link lets no one in and its guests are out", async () => {
    const doomed = (await t.api.workspace.create.mutate({ name: "doomed" })).id;
    const link = await t.api.share.create.mutate({ workspaceId: doomed, role: "editor" });
    const cookie = await joinShare(t.url, link.url, "Ken");
    expect((await trpcClient(t.url, cookie).workspace.list.query()).map((w) => w.id)).toEqual([doomed]);

    await t.api.workspace.delete.mutate({ workspaceId: doomed });
    expect(await outcome(trpcClient(t.url, cookie).workspace.list.query())).toBe("UNAUTHORIZED");
    // The link is kept, marked revoked, so it cannot come back with a workspace of the same id.
    const [kept] = await t.api.share.list.query({ workspaceId: doomed });
    expect(kept?.revokedAt).not.toBeNull();
    const again = await postShare(t.url, link.url.split("/s/")[1] ?? "", "Ken");
    expect([again.status, await again.json()]).toEqual([403, { error: SHARE_LINK_REFUSED }]);
  });

  it("guests cannot create, list or revoke links", async () => {
    const link = await t.api.share.create.mutate({ workspaceId: id, role: "editor" });
    const guest = trpcClient(t.url, await joinShare(t.url, link.url, "Eve"));
    expect(
      await Promise.all([
        outcome(guest.share.create.mutate({ workspaceId: id, role: "editor" })),
        outcome(guest.share.list.query({ workspaceId: id })),
        outcome(guest.share.revoke.mutate({ shareId: link.id })),
      ]),
    ).toEqual(["FORBIDDEN", "FORBIDDEN", "FORBIDDEN"]);
  });

  it("the join page learns which workspace and role a link opens, and a revoked link's guest is told why when refused", async () => {
    const link = await t.api.share.create.mutate({ workspaceId: id, role: "editor" });
    const secret = link.url.split("/s/")[1] ?? "";
    const preview = (s: string) =>
      fetch(`${t.url}/auth/share/preview`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: t.url },
        body: JSON.stringify({ secret: s }),
      });
    const res = await preview(secret);
    expect([res.status, await res.json()]).toEqual([200, { workspace: "shared", role: "editor" }]);
    const wrong = await preview("not-a-secret");
    expect([wrong.status, await wrong.json()]).toEqual([403, { error: SHARE_LINK_REFUSED }]);

    const cookie = await joinShare(t.url, link.url, "Ida");
    await t.api.share.revoke.mutate({ shareId: link.id });
    const refused = await fetch(`${t.url}/api/trpc/workspace.list`, { headers: { cookie } });
    const body = (await refused.json()) as {
      error: { message: string; data: { code: string; accessCode: number } };
    };
    expect([refused.status, body.error.message, body.error.data.code, body.error.data.accessCode]).toEqual([
      401,
      "This link was revoked.",
      "UNAUTHORIZED",
      AccessCloseCode.LinkRevoked,
    ]);
    // The IDE's pages send the guest to a page that says so, not to a login they cannot use.
    const page = await fetch(`${t.url}/w/${id}`, { headers: { cookie }, redirect: "manual" });
    expect([page.status, page.headers.get("location")]).toEqual([
      302,
      `/ended?code=${AccessCloseCode.LinkRevoked}`,
    ]);
    expect((await preview(secret)).status).toBe(403);
  });

  it("a guest's name shows without control or direction characters, and leaving ends the guest's session and sockets", async () => {
    const link = await t.api.share.create.mutate({ workspaceId: id, role: "viewer" });
    // A right-to-left override would make the name read as someone else's in every list.
    const cookie = await joinShare(t.url, link.url, "\u202eniamdA\u0007 ");
    const [listed] = (await t.api.share.list.query({ workspaceId: id })).filter((l) => l.id === link.id);
    expect(listed?.joined).toEqual(["niamdA"]);
    expect((await postShare(t.url, link.url.split("/s/")[1] ?? "", "\u200b\u202e")).status).toBe(400);

    const { ws } = await watchTerminal(cookie, "leaving");
    const closed = closeCode(ws, 10_000);
    const out = await fetch(`${t.url}/auth/logout`, { method: "POST", headers: { cookie, origin: t.url } });
    expect(out.status).toBe(204);
    expect(await closed).toBe(AccessCloseCode.LoggedOut);
    expect(await outcome(trpcClient(t.url, cookie).workspace.list.query())).toBe("UNAUTHORIZED");
  });
});
