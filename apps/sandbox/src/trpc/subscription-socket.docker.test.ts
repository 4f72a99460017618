import { AccessCloseCode, SUBSCRIPTION_SOCKET_PATH } from "@coder/protocol";
import type { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  joinShare,
  sharedPlace,
  startTestService,
  type TestService,
  waitForStatus,
} from "../testing/harness";
import { type TestUser, TestUsers } from "../testing/test-users";
import { type PageClient, pageClient } from "../testing/trpc-socket";
import { until } from "../testing/until";

/** A subscription's life as the page sees it. */
interface Followed {
  started: boolean;
  data: number;
  last: unknown;
  error: TRPCClientError<never> | null;
  stop(): void;
}

type Subscribe = (handlers: {
  onStarted: () => void;
  onData: (data: unknown) => void;
  onError: (e: unknown) => void;
}) => { unsubscribe(): void };

function follow(subscribe: Subscribe): Followed {
  const f: Followed = { started: false, data: 0, last: undefined, error: null, stop: () => undefined };
  const sub = subscribe({
    onStarted: () => {
      f.started = true;
    },
    onData: (data) => {
      f.data++;
      f.last = data;
    },
    onError: (e) => {
      f.error = e as TRPCClientError<never>;
    },
  });
  f.stop = () => sub.unsubscribe();
  return f;
}

/** The close code a raw socket ends with. */
function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once("close", (code) => resolve(code)));
}

describe("the page's one socket for every subscription", () => {
  let t: TestService;
  let users: TestUsers;
  let vera: TestUser;
  let workspaceId: string;
  let otherId: string;
  const pages: PageClient[] = [];
  const page = (cookie: string) => {
    const p = pageClient(t.url, cookie);
    pages.push(p);
    return p;
  };
  const raw = (cookie: string) =>
    new WebSocket(`${t.url.replace(/^http/, "ws")}${SUBSCRIPTION_SOCKET_PATH}`, {
      headers: { cookie, origin: t.url },
    });

  beforeAll(async () => {
    t = await startTestService();
    users = await TestUsers.open(t);
    vera = await users.create("Vera");
    workspaceId = (await t.api.workspace.create.mutate({ name: "one-socket" })).id;
    otherId = (await t.api.workspace.create.mutate({ name: "other" })).id;
    await waitForStatus(t.api, workspaceId, "running");
  });
  afterAll(async () => {
    for (const p of pages) await p.close();
    await users?.close();
    await t?.close();
  });

  it("carries the workspace list, files, presence, talk and git live over one connection, and a call still answers while six are open", async () => {
    const { api, opens } = page(t.cookie);
    const followed = [
      follow((h) => api.workspace.events.subscribe(undefined, h)),
      follow((h) => api.files.changes.subscribe({ workspaceId }, h)),
      follow((h) => api.presence.watch.subscribe({ workspaceId, clientId: "first-tab" }, h)),
      follow((h) => api.talk.watch.subscribe({ workspaceId }, h)),
      follow((h) => api.git.events.subscribe({ workspaceId }, h)),
      follow((h) => api.session.watchList.subscribe({ workspaceId }, h)),
    ];
    await until(() => followed.every((f) => f.started), "every subscription started");
    expect((await api.workspace.get.query({ workspaceId })).id).toBe(workspaceId);
    await api.talk.send.mutate({ workspaceId, text: "over the one socket" });
    await until(() => (followed[3]?.data ?? 0) > 0, "the talk arrived live");
    expect(opens()).toBe(1);
    expect(followed.map((f) => f.error)).toEqual([null, null, null, null, null, null]);
    for (const f of followed) f.stop();
  });

  it("ends a guest's subscriptions within a second of the link's revocation: the socket closes saying the link was revoked", async () => {
    const link = await t.api.share.create.mutate({ workspaceId, role: "editor" });
    const guest = page(await joinShare(t.url, link.url, "Grace"));
    const talk = follow((h) => guest.api.talk.watch.subscribe({ workspaceId }, h));
    const board = follow((h) =>
      guest.api.presence.watch.subscribe({ workspaceId, clientId: "grace-tab" }, h),
    );
    const owner = page(t.cookie);
    const ownerBoard = follow((h) =>
      owner.api.presence.watch.subscribe({ workspaceId, clientId: "owner-tab" }, h),
    );
    const shows = (name: string) => JSON.stringify(ownerBoard.last ?? []).includes(`"${name}"`);
    await until(() => talk.started && board.started && shows("Grace"), "the owner's board shows the guest");
    const started = Date.now();
    await t.api.share.revoke.mutate({ shareId: link.id });
    await until(() => guest.closes.length > 0, "the guest's socket closed", 1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(guest.closes[0]).toBe(AccessCloseCode.LinkRevoked);
    // The board forgets her: her presence subscription ended on the service.
    await until(() => !shows("Grace"), "the owner's board no longer shows the guest", 1_000);
    ownerBoard.stop();
  });

  it("ends a person's subscriptions on a workspace whose share was revoked, saying why, and leaves the socket and their other subscriptions open", async () => {
    await t.api.share.create.mutate({ workspaceId, role: "viewer", email: vera.email });
    await t.api.share.create.mutate({ workspaceId: otherId, role: "viewer", email: vera.email });
    const { api, closes } = page(vera.cookie);
    const talk = follow((h) => api.talk.watch.subscribe({ workspaceId }, h));
    const list = follow((h) => api.workspace.events.subscribe(undefined, h));
    await until(() => talk.started && list.started, "her subscriptions started");
    const started = Date.now();
    await t.api.share.revoke.mutate({ workspaceId, userId: vera.userId });
    await until(() => talk.error !== null, "her talk subscription ended", 1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(talk.error?.data).toMatchObject({
      code: "UNAUTHORIZED",
      accessCode: AccessCloseCode.ShareRevoked,
    });
    expect(list.error).toBeNull();
    expect(closes).toEqual([]);
    // Her list is still live on the same socket: the other workspace shared with her stopping arrives.
    const before = list.data;
    await t.api.workspace.stop.mutate({ workspaceId: otherId });
    await until(() => list.data > before, "the list's next event arrived");
    list.stop();
  });

  it("closes the socket within a second of logging out, saying so", async () => {
    const sam = await users.create("Sam");
    const { api, closes } = page(sam.cookie);
    const list = follow((h) => api.workspace.events.subscribe(undefined, h));
    await until(() => list.started, "the list subscription started");
    const started = Date.now();
    await fetch(`${t.url}/auth/logout`, { method: "POST", headers: { cookie: sam.cookie, origin: t.url } });
    await until(() => closes.length > 0, "the socket closed", 1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(closes[0]).toBe(AccessCloseCode.LoggedOut);
  });

  it("refuses a socket without a session, saying logged out, and one opened from another origin", async () => {
    expect(await closed(raw("coder_session=forged"))).toBe(AccessCloseCode.LoggedOut);
    const foreign = new WebSocket(`${t.url.replace(/^http/, "ws")}${SUBSCRIPTION_SOCKET_PATH}`, {
      headers: { cookie: t.cookie, origin: "https://attacker.example" },
    });
    const status = await new Promise<number>((resolve) =>
      foreign.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(403);
  });

  it("drops a socket that sends a call instead of a subscription, or floods, and the service goes on", async () => {
    const caller = raw(t.cookie);
    await new Promise((resolve) => caller.once("open", resolve));
    const callerClosed = closed(caller);
    caller.send(JSON.stringify({ id: 1, method: "mutation", params: { path: "talk.send", input: {} } }));
    expect(await callerClosed).toBe(1008);

    const flooder = raw(t.cookie);
    await new Promise((resolve) => flooder.once("open", resolve));
    const flooderClosed = closed(flooder);
    for (let i = 0; i < 1_000 && flooder.readyState === WebSocket.OPEN; i++) {
      flooder.send(JSON.stringify({ id: i, method: "subscription.stop" }));
    }
    expect(await flooderClosed).toBe(1008);

    const huge = raw(t.cookie);
    await new Promise((resolve) => huge.once("open", resolve));
    const hugeClosed = closed(huge);
    huge.send("x".repeat(200_000));
    expect(await hugeClosed).toBe(1009);

    const { api } = page(t.cookie);
    const list = follow((h) => api.workspace.events.subscribe(undefined, h));
    await until(() => list.started, "a well-behaved page still subscribes");
    list.stop();
  });
});

describe("the page's socket across a restart of the service", () => {
  const place = sharedPlace();
  afterAll(() => place.close());

  it("comes back by itself when the service is back, and the page's subscriptions go on", async () => {
    const first = await place.start();
    const port = new URL(first.service.url).port;
    const page = pageClient(first.service.url, first.cookie);
    const list = follow((h) => page.api.workspace.events.subscribe(undefined, h));
    await until(() => list.started, "the list subscription started");
    await place.stop(first.service);
    await until(() => page.closes.length > 0, "the page saw its socket close");

    // The same address again, on the same data: the login still holds.
    const second = await place.start({ CODER_PORT: port });
    await until(() => page.opens() === 2, "the page's socket opened again");
    const before = list.data;
    await second.api.workspace.create.mutate({ name: "after-the-restart" });
    await until(() => list.data > before, "the new workspace arrived on the reconnected subscription");
    expect(list.error).toBeNull();
    await page.close();
  });
});
