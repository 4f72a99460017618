import { setMaxListeners } from "node:events";
import { request } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService, waitForStatus } from "../testing/harness";

interface Answer {
  status: number;
  /** When the answer came, in ms since the test's clock started. */
  at: number;
}

/**
 * Posts a share-link guess to `path` from the loopback address `from` (the whole 127.0.0.0/8 is
 * this machine's, so each is another client address to the service).
 */
function guessFrom(
  url: string,
  from: string,
  secret: string,
  path = "/auth/share/preview",
  signal?: AbortSignal,
): Promise<Answer> {
  const started = performance.now();
  const target = new URL(path, url);
  const body = JSON.stringify(path === "/auth/share" ? { secret, name: "Guesser" } : { secret });
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: "POST",
        localAddress: from,
        headers: {
          "content-type": "application/json",
          origin: url,
          "content-length": Buffer.byteLength(body),
        },
        signal,
        agent: false,
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, at: performance.now() - started }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A wrong guess's time to answer (ms). */
async function heldFor(url: string, from: string): Promise<number> {
  const answer = await guessFrom(url, from, "not-a-secret-of-any-link");
  expect(answer.status).toBe(403);
  return answer.at;
}

describe("guessing share links", () => {
  let t: TestService;
  let secret: string;
  beforeAll(async () => {
    t = await startTestService();
    const id = (await t.api.workspace.create.mutate({ name: "guessed" })).id;
    await waitForStatus(t.api, id, "running");
    secret = (await t.api.share.create.mutate({ workspaceId: id, role: "viewer" })).url.split("/s/")[1] ?? "";
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers forty parallel wrong guesses from one address one at a time, each held longer than the last", async () => {
    const stop = new AbortController();
    setMaxListeners(40, stop.signal);
    const answers: Answer[] = [];
    const guesses = Array.from({ length: 40 }, (_, i) =>
      guessFrom(t.url, "127.0.0.1", `wrong-${i}`, "/auth/share/preview", stop.signal).then(
        (a) => void answers.push(a),
        () => undefined,
      ),
    );
    // The first four answers are held 250, 500, 1000 and 2000 ms after the one before.
    while (answers.length < 4) await sleep(50);
    stop.abort();
    await Promise.all(guesses);
    const at = answers.slice(0, 4).map((a) => a.at);
    expect(answers.slice(0, 4).map((a) => a.status)).toEqual([403, 403, 403, 403]);
    // Timers may fire a millisecond early; the service adds nothing that shortens a wait.
    const gaps = at.map((ms, i) => ms - (at[i - 1] ?? 0));
    for (const [i, least] of [250, 500, 1000, 2000].entries())
      expect(gaps[i]).toBeGreaterThanOrEqual(least - 5);
  });

  it("a valid link previewed or joined in between resets no one's backoff", async () => {
    for (let i = 0; i < 3; i++) await heldFor(t.url, "127.0.0.2");
    for (let i = 0; i < 3; i++) await heldFor(t.url, "127.0.0.3");
    expect((await guessFrom(t.url, "127.0.0.2", secret)).status).toBe(200);
    expect((await guessFrom(t.url, "127.0.0.2", secret, "/auth/share")).status).toBe(204);
    // Each address's fourth failure is held 2 s, as if the valid link had not been used.
    expect(await heldFor(t.url, "127.0.0.2")).toBeGreaterThanOrEqual(1995);
    expect(await heldFor(t.url, "127.0.0.3")).toBeGreaterThanOrEqual(1995);
  });

  it("once many addresses have guessed wrong, a wrong guess from a new address is slowed too, while a right one is answered", async () => {
    await Promise.all(Array.from({ length: 40 }, (_, i) => heldFor(t.url, `127.0.1.${i + 1}`)));
    // Its own first failure would be held 250 ms; everyone's failures hold it longer.
    expect(await heldFor(t.url, "127.0.2.1")).toBeGreaterThanOrEqual(995);
    expect((await guessFrom(t.url, "127.0.2.2", secret)).status).toBe(200);
  });
});
