// Issue 23: under 250 people the service's event loop fell behind (/healthz waited 49 s for its
// first byte, 107 connections waited unaccepted) and stayed behind after the load ended, every new
// connection adding to the backlog. Here the service (this test process) is held busy in slices,
// 300 ms of every 310 ms, as a flood of work holds it.
import { SUBSCRIPTION_SOCKET_PATH } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { openTerminal, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { stallTheService } from "../testing/stall-the-service";
import { until } from "../testing/until";
import { BUSY_MESSAGE, BUSY_PAGE } from "./busy-shedding";

/** What became of a new WebSocket upgrade: accepted (101), or refused with its status and words. */
interface Upgrade {
  status: number;
  retryAfter?: string;
  body?: string;
}

describe("a service whose event loop falls far behind", () => {
  let t: TestService;
  let id: string;
  const log: string[] = [];

  beforeAll(async () => {
    t = await startTestService({}, { CODER_BUSY_LAG_MS: "1000" }, (line) => log.push(line));
    id = (await t.api.workspace.create.mutate({ name: "busy" })).id;
    await waitForStatus(t.api, id, "running");
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  /** A page's new socket, as a browser opens it. */
  function newSocket(): Promise<Upgrade> {
    return new Promise((resolve) => {
      const ws = new WebSocket(`${t.url.replace(/^http/, "ws")}${SUBSCRIPTION_SOCKET_PATH}`, {
        headers: { cookie: t.cookie, origin: t.url },
      });
      ws.on("open", () => {
        ws.close();
        resolve({ status: 101 });
      });
      ws.on("unexpected-response", (_req, res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"], body }),
        );
      });
      ws.on("error", () => undefined);
    });
  }

  it("takes a new socket right after one long task held the service for 1.5 s", async () => {
    stallTheService(1500);
    // One stall is over once it is measured: only a loop late again and again is busy.
    expect(await newSocket()).toEqual({ status: 101 });
    expect(log.filter((line) => line.startsWith("busy"))).toEqual([]);
  });

  it("refuses new sockets and requests with 503 and a plain sentence (a page that retries by itself for a browser opening one), answers /healthz saying busy, keeps an open terminal working, and takes new sockets once it caught up", async () => {
    const terminal = await openTerminal(t.url, t.cookie, id, "open-before");
    const load = setInterval(() => stallTheService(300), 310);
    try {
      let refused: Upgrade = { status: 0 };
      await until(
        async () => {
          refused = await newSocket();
          return refused.status === 503;
        },
        "a new socket is refused",
        60_000,
      );
      expect(refused).toEqual({ status: 503, retryAfter: "5", body: BUSY_MESSAGE });
      // A page's calls fail with the sentence, as the page shows a call's error.
      await expect(t.api.workspace.list.query()).rejects.toThrow(BUSY_MESSAGE);
      const page = await fetch(`${t.url}/login`);
      expect([page.status, page.headers.get("retry-after"), await page.text()]).toEqual([
        503,
        "5",
        BUSY_MESSAGE,
      ]);
      // A browser opening a page meets a page that says so and tries again by itself.
      const opened = await fetch(`${t.url}/login`, { headers: { accept: "text/html,*/*;q=0.8" } });
      expect([opened.status, opened.headers.get("content-type"), await opened.text()]).toEqual([
        503,
        "text/html; charset=utf-8",
        BUSY_PAGE,
      ]);
      expect(BUSY_PAGE).toContain(BUSY_MESSAGE);
      expect(BUSY_PAGE).toContain('<meta http-equiv="refresh" content="5">');
      const health = await fetch(`${t.url}/healthz`);
      expect([health.status, await health.text()]).toEqual([200, "busy"]);
      terminal.send("echo still-$((40 + 2))\n");
      await terminal.waitFor(/still-42/, 60_000);
    } finally {
      clearInterval(load);
    }

    await until(async () => (await newSocket()).status === 101, "a new socket is taken again", 60_000);
    expect(await (await fetch(`${t.url}/healthz`)).text()).toBe("ok");
    await until(() => log.some((line) => line.startsWith("busy no more")), "the log says it caught up");
    expect(log.filter((line) => line.startsWith("busy"))).toEqual([
      expect.stringMatching(/^busy: the event loop ran late again and again, \d+\.\d s in the last 2\.0 s/),
      expect.stringMatching(/^busy no more: /),
    ]);
    terminal.ws.close();
  }, 180_000);
});
