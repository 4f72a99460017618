import { setTimeout as sleep } from "node:timers/promises";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import {
  joinShare,
  openTerminal,
  startTestService,
  type TestService,
  waitForStatus,
} from "../src/testing/harness";

const now = () => performance.now();
const GUESTS = 20;
const ROUNDS = 12;

/** Opens a presence subscription over SSE as the browser does; resolves `closed` when the service ends it. */
async function openPresence(t: TestService, cookie: string, workspaceId: string, clientId: string) {
  const input = encodeURIComponent(JSON.stringify({ workspaceId, clientId }));
  const res = await fetch(`${t.url}/api/trpc/presence.watch?input=${input}`, {
    headers: { cookie, origin: t.url, accept: "text/event-stream" },
  });
  const reader = res.body?.getReader();
  if (!reader) throw new Error("the subscription has no body");
  const closed = (async () => {
    try {
      while (!(await reader.read()).done) {
        // Read until the service ends the stream.
      }
    } catch {
      // A cut connection ends it too.
    }
    return now();
  })();
  return { closed };
}

/**
 * One round: 20 guests join through one link, half hold a terminal WebSocket and half a live
 * subscription; the time from calling `share.revoke` to the last of the 20 closing.
 */
async function revokeRound(t: TestService, workspaceId: string, round: number): Promise<number> {
  const link = await t.api.share.create.mutate({ workspaceId, role: "editor" });
  const closings: Promise<number>[] = [];
  for (let i = 0; i < GUESTS; i++) {
    const cookie = await joinShare(t.url, link.url, `guest ${round}.${i}`);
    if (i % 2 === 0) {
      const { ws } = await openTerminal(t.url, cookie, workspaceId, `bench${i}`);
      closings.push(new Promise((resolve) => ws.once("close", () => resolve(now()))));
    } else {
      closings.push((await openPresence(t, cookie, workspaceId, `bench-${round}-${i}`)).closed);
    }
  }
  // Every connection is registered under its guest before the clock starts.
  for (;;) {
    const [listed] = (await t.api.share.list.query({ workspaceId })).filter((l) => l.id === link.id);
    if (listed?.openConnections === GUESTS) break;
    await sleep(20);
  }
  const start = now();
  await t.api.share.revoke.mutate({ shareId: link.id });
  const last = Math.max(...(await Promise.all(closings)));
  return last - start;
}

/** Times `fn` `n` times; returns the durations in ms. */
async function time(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = now();
    await fn();
    out.push(now() - start);
  }
  return out;
}

export async function run(): Promise<BenchResult[]> {
  const t = await startTestService();
  const results: BenchResult[] = [];
  try {
    const { id } = await t.api.workspace.create.mutate({ name: "sharing bench" });
    await waitForStatus(t.api, id, "running", 60_000);

    const revokes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) revokes.push(await revokeRound(t, id, round));
    const p50 = round(percentile(revokes, 50), 1);
    const p99 = round(percentile(revokes, 99), 1);
    results.push(
      {
        name: `share.revoke → last of ${GUESTS} guest connections closed (terminals + subscriptions) p50`,
        value: p50,
        unit: "ms",
        target: "≤ 1000 ms",
        pass: p50 <= 1000,
        notes: `${ROUNDS} rounds`,
      },
      {
        name: `share.revoke → last of ${GUESTS} guest connections closed p99`,
        value: p99,
        unit: "ms",
        target: "≤ 1000 ms",
        pass: p99 <= 1000,
      },
    );

    // The principal check of every tRPC call: the cookie's session looked up in the database
    // (an owner's: one table; a guest's: a join over session, link and workspace) and the role
    // compared. Timed alone and as part of a whole call over HTTP, alternating blocks in one run.
    const link = await t.api.share.create.mutate({ workspaceId: id, role: "editor" });
    const guestCookie = await joinShare(t.url, link.url, "bench guest");
    const cookieValue = (cookie: string) => decodeURIComponent(cookie.split("=")[1] ?? "");
    const auth = t.service.auth;
    const check = async (cookie: string) => {
      const principal = await auth.session(cookieValue(cookie));
      if (!principal || (await auth.roles.of(principal, id)) === null) throw new Error("the check refused");
    };
    const call = (cookie: string) =>
      fetch(
        `${t.url}/api/trpc/workspace.get?input=${encodeURIComponent(JSON.stringify({ workspaceId: id }))}`,
        {
          headers: { cookie },
        },
      ).then((r) => r.arrayBuffer());
    const samples = { owner: [] as number[], guest: [] as number[], call: [] as number[] };
    for (let block = 0; block < 20; block++) {
      samples.owner.push(...(await time(25, () => check(t.cookie))));
      samples.guest.push(...(await time(25, () => check(guestCookie))));
      samples.call.push(...(await time(25, () => call(t.cookie))));
    }
    const callP50 = percentile(samples.call, 50);
    for (const who of ["owner", "guest"] as const) {
      const p = percentile(samples[who], 50);
      results.push({
        name: `principal check per tRPC call (${who}: session lookup + role), p50`,
        value: round(p, 3),
        unit: "ms",
        ratio: round(p / callP50, 3),
        notes: `ratio: share of a whole workspace.get call over HTTP (p50 ${round(callP50, 2)} ms)`,
      });
    }
    results.push({
      name: "workspace.get over HTTP with the check, p50",
      value: round(callP50, 2),
      unit: "ms",
    });
  } finally {
    await t.close();
  }
  return results;
}
