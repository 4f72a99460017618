import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SESSION_COOKIE } from "../auth/http-auth";
import { FIRST_ADMIN_ID } from "../db/migrations";
import type { AttachedProcess } from "../driver/workspace-driver";
import { closeWithin, wsClose } from "../testing/close-within";
import {
  instanceDriver,
  joinShare,
  startTestService,
  type TestService,
  trpcClient,
  waitForStatus,
} from "../testing/harness";
import { subscriptionEvents } from "../testing/trpc-sse";
import { until } from "../testing/until";
import { APP_SERVER } from "./testing/app-server";
import { enterPreview, nextMessage, opened, previewSocket, request } from "./testing/preview-client";
import { APP_PORT, startApp } from "./testing/start-app";

describe("previews of the web apps a workspace serves", () => {
  let t: TestService;
  let id: string;
  let app: AttachedProcess;
  /** The preview origin's root URL of the app's port, as preview.list gives it. */
  let root = "";

  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "previews" })).id;
    await waitForStatus(t.api, id, "running");
    app = await startApp(t.api, instanceDriver(t.instance), id);
    root =
      (await t.api.preview.list.query({ workspaceId: id })).ports.find((p) => p.port === APP_PORT)?.url ?? "";
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  /** A fresh preview cookie of the owner for `port`. */
  const ownerCookie = async (port = APP_PORT) =>
    (await enterPreview((await t.api.preview.open.mutate({ workspaceId: id, port })).url)).cookie;

  describe("ports", () => {
    it("lists the port a server in the workspace listens on, with its process, private, at its own origin", async () => {
      const { ports } = await t.api.preview.list.query({ workspaceId: id });
      expect(ports.find((p) => p.port === APP_PORT)).toEqual({
        port: APP_PORT,
        process: "node",
        visibility: "private",
        url: `http://${APP_PORT}-${id}.localhost:${new URL(t.url).port}/`,
      });
    });

    it("tells the workspace events stream when a port opens and when it closes", async () => {
      const abort = new AbortController();
      const events = subscriptionEvents<{ type: string; workspaceId?: string; ports?: { port: number }[] }>(
        t.url,
        t.cookie,
        "workspace.events",
        {},
        abort.signal,
      );
      // Read with next(): leaving a for-await loop would end the stream.
      const portsSeen = async (has: boolean) => {
        for (let next = await events.next(); !next.done; next = await events.next()) {
          const event = next.value;
          if (event.type !== "ports" || event.workspaceId !== id) continue;
          const ports = event.ports?.map((p) => p.port) ?? [];
          if (ports.includes(4000) === has) return ports;
        }
        return [];
      };
      // A visibility change publishes the list: once it arrives, the stream is surely listening.
      const listening = portsSeen(false);
      await t.api.preview.setVisibility.mutate({ workspaceId: id, port: APP_PORT, visibility: "private" });
      await listening;
      const opening = portsSeen(true);
      const second = await instanceDriver(t.instance).exec(id, ["node", "-e", APP_SERVER, "4000"]);
      second.stdout.resume();
      second.stderr.resume();
      expect(await opening).toEqual([APP_PORT, 4000]);
      const closing = portsSeen(false);
      await second.close();
      expect(await closing).toEqual([APP_PORT]);
      abort.abort();
    });
  });

  describe("proxy", () => {
    it("shows the app a request without any coder_ cookie and without the client's X-Forwarded-* headers", async () => {
      const cookie = await ownerCookie();
      const { status, body } = await request(`${root}headers`, {
        headers: {
          cookie: `${cookie}; ${t.cookie}; theme=dark`,
          "x-forwarded-for": "203.0.113.9",
          "x-forwarded-host": "evil.example",
          forwarded: "for=203.0.113.9",
        },
      });
      expect(status).toBe(200);
      const seen = JSON.parse(body) as Record<string, string>;
      expect(seen.cookie).toBe("theme=dark");
      expect(Object.keys(seen).filter((h) => h.startsWith("x-forwarded-") || h === "forwarded")).toEqual([]);
      expect(seen.host).toBe(new URL(root).host);
    });

    it("keeps the app's cookies to its own origin and never lets it set a coder_ cookie", async () => {
      const answer = await request(root, { headers: { cookie: await ownerCookie() } });
      expect(answer.body).toContain("hello from the app");
      expect(answer.headers["set-cookie"]).toEqual(["app=1; Path=/"]);
      // The app's own headers, not the IDE's.
      expect(answer.headers["x-frame-options"]).toBeUndefined();
    });

    it("streams a chunked answer through", async () => {
      const answer = await request(`${root}chunked`, { headers: { cookie: await ownerCookie() } });
      expect(answer.body).toBe("one,two,three");
    });

    it("streams a request body to the app and its answer back", async () => {
      const body = Buffer.alloc(3 * 1024 * 1024, "abc");
      const answer = await request(`${root}echo`, {
        method: "POST",
        headers: { cookie: await ownerCookie(), "transfer-encoding": "chunked" },
        body,
      });
      expect(answer.body.length).toBe(body.length);
      expect(answer.body === body.toString()).toBe(true);
    });

    it("takes a request body sent after 100-continue, as curl sends one over 1 KB", async () => {
      const body = Buffer.alloc(64 * 1024, "xyz");
      const answer = await request(`${root}echo`, {
        method: "POST",
        headers: {
          cookie: await ownerCookie(),
          expect: "100-continue",
          "content-length": String(body.length),
        },
        body,
      });
      expect(answer.status).toBe(200);
      expect(answer.body === body.toString()).toBe(true);
    });

    it("echoes WebSocket messages through the preview", async () => {
      const ws = previewSocket(root, await ownerCookie());
      await opened(ws);
      const echoed = nextMessage(ws);
      ws.send("ping through the tunnel");
      expect(await echoed).toBe("ping through the tunnel");
      ws.close();
    });

    it("answers a port nothing listens on with a plain 502 page", async () => {
      const port = 3999;
      const cookie = await ownerCookie(port);
      const answer = await request(`http://${port}-${id}.localhost:${new URL(t.url).port}/`, {
        headers: { cookie },
      });
      expect(answer.status).toBe(502);
      expect(answer.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(answer.body).toContain(`nothing listens on port ${port}`);
    });

    it("answers a plain 502 page saying the app closed the connection when it hangs up without answering", async () => {
      const answer = await request(`${root}drop`, { headers: { cookie: await ownerCookie() } });
      expect(answer.status).toBe(502);
      expect(answer.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(answer.body).toContain(`the app on port ${APP_PORT} closed the connection without answering`);
    });

    it("never hands the next request an answer the app sent before anyone asked", async () => {
      const cookie = await ownerCookie();
      expect((await request(`${root}twice`, { headers: { cookie } })).body).toBe("first");
      // The app's tunnels are kept between requests: the next one, on any of them, gets its own answer.
      for (let i = 0; i < 3; i++) {
        const next = await request(root, { headers: { cookie } });
        expect(next.body).toContain("hello from the app");
      }
    });

    it("answers 421 for a host under the preview domain that is not exactly a preview origin", async () => {
      const port = new URL(t.url).port;
      for (const host of [
        `foo.localhost:${port}`,
        `0${APP_PORT}-${id}.localhost:${port}`,
        `70000-${id}.localhost:${port}`,
        `${APP_PORT}-${id}.x.localhost:${port}`,
        `${APP_PORT}-${id}.localhost.evil.example:${port}`,
      ]) {
        const answer = await request(`http://${host}/`, { headers: { cookie: t.cookie } });
        expect([host, answer.status]).toEqual([host, 421]);
      }
    });

    it("never answers the IDE's API, pages or sockets on a preview origin, and refuses the IDE's API to a preview page", async () => {
      // On a preview host, /api/trpc is the app's path: without a preview cookie, the sign-in.
      const onPreview = await request(`${root}api/trpc/workspace.list`, { headers: { cookie: t.cookie } });
      expect(onPreview.status).toBe(302);
      expect(onPreview.body).not.toContain(id);
      // A preview page's fetch to the IDE with the IDE's cookie (a same-site deployment sends it).
      const fromPreview = await request(`${t.url}/api/trpc/workspace.list`, {
        headers: { cookie: t.cookie, origin: new URL(root).origin },
      });
      expect(fromPreview.status).toBe(403);
      expect(fromPreview.body).not.toContain(id);
      // Its WebSockets to the IDE are refused by the Origin check.
      const terminal = new WebSocket(`${t.url.replace("http", "ws")}/terminal/${id}/main`, {
        headers: { origin: new URL(root).origin, cookie: t.cookie },
      });
      await expect(opened(terminal)).rejects.toThrow(/refused with 403/);
    });

    it("lets the IDE frame exactly the preview origins", async () => {
      const res = await fetch(`${t.url}/login`);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain(`frame-src 'self' http://*.localhost:${new URL(t.url).port};`);
      expect(csp).toContain("frame-ancestors 'none'");
    });

    it("streams a 100 MB download with backpressure: a reader that stops holds the app back, the service buffers nothing", async () => {
      const cookie = await ownerCookie();
      const progress = async () => Number((await request(`${root}progress`, { headers: { cookie } })).body);
      const { default: http } = await import("node:http");
      const target = new URL(`${root}big?mb=100`);
      const rssBefore = process.memoryUsage().rss;
      const res = await new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
        http
          .get(
            {
              host: "127.0.0.1",
              port: target.port,
              path: `${target.pathname}${target.search}`,
              headers: { host: target.host, cookie },
              agent: false,
            },
            resolve,
          )
          .on("error", reject);
      });
      expect(res.statusCode).toBe(200);
      // The reader takes nothing: the app must stall once the pipes between are full.
      res.pause();
      let last = -1;
      let stable = 0;
      await until(async () => {
        const now = await progress();
        stable = now === last ? stable + 1 : 0;
        last = now;
        return stable >= 5;
      }, "the app stopped writing because nobody reads");
      expect(last).toBeLessThan(40 * 1024 * 1024);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
      let received = 0;
      let peak = 0;
      res.on("data", (c: Buffer) => {
        received += c.length;
        peak = Math.max(peak, process.memoryUsage().rss - rssBefore);
      });
      res.resume();
      await new Promise((resolve) => res.once("end", resolve));
      expect(received).toBe(100 * 1024 * 1024);
      expect(peak).toBeLessThan(96 * 1024 * 1024);
    }, 120_000);
  });

  describe("access", () => {
    it("sends a browser without a preview cookie to the IDE's sign-in, never to the app", async () => {
      for (const cookie of [undefined, "coder_preview=forged", t.cookie]) {
        const answer = await request(root, { headers: cookie ? { cookie } : {} });
        expect(answer.status).toBe(302);
        expect(answer.headers.location).toBe(`${t.url}/login`);
        expect(answer.body).not.toContain("hello from the app");
      }
    });

    it("exchanges the token for a host-only, HttpOnly, partitioned cookie and goes on to the path without it", async () => {
      const { url } = await t.api.preview.open.mutate({
        workspaceId: id,
        port: APP_PORT,
        path: "/headers?x=1",
      });
      expect(url).toMatch(new RegExp(`^${root}headers\\?x=1&coder_preview_token=[A-Za-z0-9_-]{43}$`));
      const { answer, cookie } = await enterPreview(url);
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe("/headers?x=1");
      const attributes = (answer.headers["set-cookie"]?.[0] ?? "").split("; ").slice(1).sort();
      expect(attributes).toEqual(["HttpOnly", "Partitioned", "Path=/", "SameSite=None", "Secure"]);
      expect((await request(`${root}headers?x=1`, { headers: { cookie } })).status).toBe(200);
    });

    it("refuses a token replayed, expired, or used for another port or workspace", async () => {
      const open = async () => (await t.api.preview.open.mutate({ workspaceId: id, port: APP_PORT })).url;
      const used = await open();
      expect((await enterPreview(used)).answer.status).toBe(302);
      expect((await request(used)).status).toBe(403);

      const expired = await open();
      await t.service.db
        .updateTable("preview_tokens")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      expect((await request(expired)).status).toBe(403);

      const otherPort = new URL(await open());
      otherPort.hostname = otherPort.hostname.replace(`${APP_PORT}-`, "3001-");
      expect((await request(otherPort.href)).status).toBe(403);

      const otherWorkspace = new URL(await open());
      otherWorkspace.hostname = otherWorkspace.hostname.replace(id, "otherworkspace0000");
      expect((await request(otherWorkspace.href)).status).toBe(403);
    });

    it("refuses a viewer a private port and lets them in once it is visible to the workspace", async () => {
      const share = await t.api.share.create.mutate({ workspaceId: id, role: "viewer" });
      const viewer = trpcClient(t.url, await joinShare(t.url, share.url, "Vera"));
      await expect(viewer.preview.open.mutate({ workspaceId: id, port: APP_PORT })).rejects.toThrow(
        /private/,
      );
      await t.api.preview.setVisibility.mutate({ workspaceId: id, port: APP_PORT, visibility: "workspace" });
      const { cookie } = await enterPreview(
        (await viewer.preview.open.mutate({ workspaceId: id, port: APP_PORT })).url,
      );
      expect((await request(root, { headers: { cookie } })).body).toContain("hello from the app");
      // Private again: the viewer's very next request is refused.
      await t.api.preview.setVisibility.mutate({ workspaceId: id, port: APP_PORT, visibility: "private" });
      expect((await request(root, { headers: { cookie } })).status).toBe(403);
      await t.api.share.revoke.mutate({ shareId: share.id });
    });

    it("refuses the very next request on a kept-alive connection once the port is private again or the share is revoked", async () => {
      await t.api.preview.setVisibility.mutate({ workspaceId: id, port: APP_PORT, visibility: "workspace" });
      const share = await t.api.share.create.mutate({ workspaceId: id, role: "viewer" });
      const viewer = trpcClient(t.url, await joinShare(t.url, share.url, "Kay"));
      const { cookie } = await enterPreview(
        (await viewer.preview.open.mutate({ workspaceId: id, port: APP_PORT })).url,
      );
      // One connection for every request below, as a browser keeps one to an origin.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const onKeptConnection = () => request(root, { headers: { cookie }, agent });
      try {
        expect((await onKeptConnection()).status).toBe(200);
        expect((await onKeptConnection()).reusedConnection).toBe(true);
        await t.api.preview.setVisibility.mutate({ workspaceId: id, port: APP_PORT, visibility: "private" });
        const afterPrivate = await onKeptConnection();
        expect([afterPrivate.status, afterPrivate.reusedConnection]).toEqual([403, true]);

        await t.api.preview.setVisibility.mutate({
          workspaceId: id,
          port: APP_PORT,
          visibility: "workspace",
        });
        expect((await onKeptConnection()).status).toBe(200);
        await t.api.share.revoke.mutate({ shareId: share.id });
        const afterRevoke = await onKeptConnection();
        expect(afterRevoke.status).not.toBe(200);
        expect(afterRevoke.body).not.toContain("hello from the app");
      } finally {
        agent.destroy();
        await t.api.preview.setVisibility.mutate({ workspaceId: id, port: APP_PORT, visibility: "private" });
      }
    });

    it("cuts an open preview WebSocket within a second when the share is revoked, the person logs out, or the visibility changes", async () => {
      await t.api.preview.setVisibility.mutate({ workspaceId: id, port: APP_PORT, visibility: "workspace" });
      const share = await t.api.share.create.mutate({ workspaceId: id, role: "viewer" });
      const viewer = trpcClient(t.url, await joinShare(t.url, share.url, "Vic"));
      const guest = await enterPreview(
        (await viewer.preview.open.mutate({ workspaceId: id, port: APP_PORT })).url,
      );
      const guestSocket = previewSocket(root, guest.cookie);
      await opened(guestSocket);
      const revoked = closeWithin(wsClose(guestSocket), 1000);
      await t.api.share.revoke.mutate({ shareId: share.id });
      expect(await revoked).not.toBeNull();
      expect((await request(root, { headers: { cookie: guest.cookie } })).status).toBe(302);

      // A second login of the owner, which logs out.
      const session = `${SESSION_COOKIE}=${(await t.service.auth.createSession(FIRST_ADMIN_ID)).cookie}`;
      const owner = trpcClient(t.url, session);
      const mine = await enterPreview(
        (await owner.preview.open.mutate({ workspaceId: id, port: APP_PORT })).url,
      );
      const ownerSocket = previewSocket(root, mine.cookie);
      await opened(ownerSocket);
      const loggedOut = closeWithin(wsClose(ownerSocket), 1000);
      await fetch(`${t.url}/auth/logout`, { method: "POST", headers: { origin: t.url, cookie: session } });
      expect(await loggedOut).not.toBeNull();
      expect((await request(root, { headers: { cookie: mine.cookie } })).status).toBe(302);

      const socket = previewSocket(root, await ownerCookie());
      await opened(socket);
      const changed = closeWithin(wsClose(socket), 1000);
      await t.api.preview.setVisibility.mutate({ workspaceId: id, port: APP_PORT, visibility: "private" });
      expect(await changed).not.toBeNull();
    });

    it("lets anyone open a public port, and makes every port private again when the workspace stops", async () => {
      await t.api.preview.setVisibility.mutate({ workspaceId: id, port: APP_PORT, visibility: "public" });
      expect((await request(root)).body).toContain("hello from the app");
      await t.service.audit.settled();
      const entries = await t.service.db
        .selectFrom("audit_events")
        .select("action")
        .where("workspace_id", "=", id)
        .execute();
      expect(entries.map((e) => e.action)).toEqual(
        expect.arrayContaining(["preview.opened", "preview.visibility_changed"]),
      );
      await t.api.workspace.stop.mutate({ workspaceId: id });
      await until(
        async () => (await t.service.db.selectFrom("preview_visibility").selectAll().execute()).length === 0,
        "the visibility is private again",
      );
      expect((await request(root)).status).toBe(302);
    });
  });
});
