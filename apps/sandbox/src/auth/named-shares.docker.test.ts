import { setTimeout as sleep } from "node:timers/promises";
import { AccessCloseCode } from "@coder/protocol";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type WebSocket from "ws";
import { openTerminal, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { type TestUser, TestUsers } from "../testing/test-users";
import { subscriptionEvents } from "../testing/trpc-sse";

/** What `workspace.events` sends, as far as these tests look. */
interface ListEvent {
  type: string;
  workspaceId?: string;
  workspace?: { id: string; role: string };
}

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

/** Opens a subscription over SSE as a browser would; `ended` settles when the service ends the stream. */
async function subscribe(url: string, cookie: string, path: string, input: unknown) {
  const query = encodeURIComponent(JSON.stringify(input));
  const res = await fetch(`${url}/api/trpc/${path}?input=${query}`, {
    headers: { cookie, origin: url, accept: "text/event-stream" },
  });
  const reader = res.body?.getReader();
  if (!reader) throw new Error("the subscription has no body");
  let open = true;
  const ended = (async () => {
    try {
      while (!(await reader.read()).done) {
        // Keep reading until the service ends the stream.
      }
    } catch {
      // A cut connection ends it too.
    }
    open = false;
  })();
  return { ended, isOpen: () => open, cancel: () => reader.cancel() };
}

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition never held");
    await sleep(50);
  }
}

/** The tRPC error code of a failed call, or "ok". */
async function outcome(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => "ok",
    (e: unknown) => (e instanceof TRPCClientError ? String(e.data?.code) : String(e)),
  );
}

describe("sharing a workspace with a person by name", () => {
  let t: TestService;
  let users: TestUsers;
  let bob: TestUser;
  let vera: TestUser;
  let workspaceId: string;
  beforeAll(async () => {
    t = await startTestService();
    users = await TestUsers.open(t);
    bob = await users.create("Bob");
    vera = await users.create("Vera");
    workspaceId = (await bob.api.workspace.create.mutate({ name: "bobs" })).id;
    await waitForStatus(bob.api, workspaceId, "running");
  });
  afterAll(async () => {
    await users?.close();
    await t?.close();
  });

  it("refuses a share with an address that has no account, and one with the owner", async () => {
    await expect(
      bob.api.share.create.mutate({ workspaceId, role: "viewer", email: "nobody@example.com" }),
    ).rejects.toThrow("there is no account for nobody@example.com; invite them first");
    await expect(
      bob.api.share.create.mutate({ workspaceId, role: "viewer", userId: bob.userId }),
    ).rejects.toThrow("Bob owns this workspace already");
    // Only the owner shares: the person it is shared with may not pass it on.
    expect(
      await outcome(vera.api.share.create.mutate({ workspaceId, role: "editor", userId: vera.userId })),
    ).toBe("FORBIDDEN");
  });

  it("revoking a person's share closes their terminal and subscriptions on that workspace within a second, and nothing else of theirs", async () => {
    await bob.api.share.create.mutate({ workspaceId, role: "editor", email: vera.email });
    expect((await vera.api.workspace.list.query()).map((w) => [w.id, w.role])).toEqual([
      [workspaceId, "editor"],
    ]);
    const term = await openTerminal(t.url, vera.cookie, workspaceId, "vera");
    const talk = await subscribe(t.url, vera.cookie, "talk.watch", { workspaceId });
    // Her list's live updates are no one workspace's: they stay open.
    const list = await subscribe(t.url, vera.cookie, "workspace.events", {});
    await until(async () => (await bob.api.share.people.query({ workspaceId }))[0]?.openConnections === 2);
    const closed = closeCode(term.ws, 1_000);
    const started = Date.now();
    await bob.api.share.revoke.mutate({ workspaceId, userId: vera.userId });
    expect(await closed).toBe(AccessCloseCode.ShareRevoked);
    await talk.ended;
    const ms = Date.now() - started;
    expect(ms).toBeLessThan(1_000);
    expect(list.isOpen()).toBe(true);
    await list.cancel();

    expect(await outcome(vera.api.workspace.get.query({ workspaceId }))).toBe("FORBIDDEN");
    expect(await vera.api.workspace.list.query()).toEqual([]);
    expect(await bob.api.share.people.query({ workspaceId })).toEqual([]);
  });

  it("a person who renames themselves is shown under the new name, and may not take the owner's", async () => {
    await bob.api.share.create.mutate({ workspaceId, role: "viewer", userId: vera.userId });
    await vera.api.profile.update.mutate({ displayName: "Vera Rubin" });
    expect(await vera.api.workspace.whoami.query()).toEqual({
      kind: "user",
      name: "Vera Rubin",
      userId: vera.userId,
      siteRole: "member",
    });
    expect((await bob.api.share.people.query({ workspaceId })).map((p) => p.name)).toEqual(["Vera Rubin"]);
    expect((await vera.api.workspace.list.query())[0]?.owner?.name).toBe("Bob");
    await expect(vera.api.profile.update.mutate({ displayName: "Оwner" })).rejects.toThrow(
      /choose a name of your own/,
    );
  });

  it("a workspace an admin gives to another person leaves the old owner's live list and appears in the new owner's", async () => {
    const ada = await users.create("Ada", "admin");
    await bob.api.share.create.mutate({ workspaceId, role: "viewer", userId: vera.userId });
    const abort = new AbortController();
    const watch = (who: TestUser) => {
      const seen: ListEvent[] = [];
      void (async () => {
        const events = subscriptionEvents<ListEvent>(t.url, who.cookie, "workspace.events", {}, abort.signal);
        for await (const e of events) seen.push(e);
      })();
      return seen;
    };
    const bobSees = watch(bob);
    const veraSees = watch(vera);
    const shows = (seen: ListEvent[], role: string) =>
      seen.some((e) => e.type === "upsert" && e.workspace?.id === workspaceId && e.workspace.role === role);
    try {
      // Both lists are live once each has shown a change of the workspace to its person.
      await until(async () => {
        await t.service.workspaces.publishChange(workspaceId);
        return shows(bobSees, "owner") && shows(veraSees, "viewer");
      });
      await ada.api.workspace.transfer.mutate({ workspaceId, userId: vera.userId });
      await until(async () => bobSees.some((e) => e.type === "deleted" && e.workspaceId === workspaceId));
      await until(async () => shows(veraSees, "owner"));
      expect((await bob.api.workspace.list.query()).map((w) => w.id)).not.toContain(workspaceId);
    } finally {
      abort.abort();
    }
  });
});
