import { describe, expect, it } from "vitest";
import { type BackoffClock, clientKey, FailureBackoff, TooManyGuessesError } from "./failure-backoff";

/** A clock whose sleeps are recorded and end only when the test lets them. */
function manualClock() {
  let now = 1_000_000;
  const sleeps: { ms: number; end: () => void }[] = [];
  const clock: BackoffClock = {
    now: () => now,
    sleep: (ms) => new Promise<void>((end) => sleeps.push({ ms, end })),
  };
  return {
    clock,
    sleeps,
    advance(ms: number) {
      now += ms;
    },
    /** Ends every sleep begun so far; the delays they asked for. */
    async release(): Promise<number[]> {
      await settle();
      const ended = sleeps.splice(0);
      for (const s of ended) s.end();
      await settle();
      return ended.map((s) => s.ms);
    },
  };
}

const settle = () => new Promise((r) => setImmediate(r));
const wrong = async () => null;
const right = async () => "link";

/** Runs wrong guesses from `address` one after another; the delays their answers were held. */
async function failInTurn(
  backoff: FailureBackoff,
  c: ReturnType<typeof manualClock>,
  address: string,
  n: number,
) {
  const delays: number[] = [];
  for (let i = 0; i < n; i++) {
    const answer = backoff.run(address, wrong);
    delays.push(...(await c.release()));
    await answer;
  }
  return delays;
}

describe("slowing down guesses of share-link secrets", () => {
  it("holds each further wrong answer to one address longer, up to a bound", async () => {
    const c = manualClock();
    const backoff = new FailureBackoff(c.clock);
    const delays = await failInTurn(backoff, c, "10.0.0.1", 8);
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it("looks up one address's parallel guesses one at a time, each after the previous answer", async () => {
    const c = manualClock();
    const backoff = new FailureBackoff(c.clock);
    let lookups = 0;
    const guesses = Array.from({ length: 5 }, () =>
      backoff.run("10.0.0.1", async () => {
        lookups++;
        return null;
      }),
    );
    for (let answered = 0; answered < 5; answered++) {
      await settle();
      // Every guess before this one was answered; this one is looked up and held, the rest wait.
      expect(lookups).toBe(answered + 1);
      expect(await c.release()).toHaveLength(1);
    }
    await Promise.all(guesses);
  });

  it("answers a right secret at once, and it resets nobody's backoff, not even its own address's", async () => {
    const c = manualClock();
    const backoff = new FailureBackoff(c.clock);
    await failInTurn(backoff, c, "10.0.0.1", 3);
    await failInTurn(backoff, c, "10.0.0.2", 3);
    expect(await backoff.run("10.0.0.1", right)).toBe("link");
    expect(c.sleeps).toHaveLength(0);
    expect(await failInTurn(backoff, c, "10.0.0.1", 1)).toEqual([2000]);
    expect(await failInTurn(backoff, c, "10.0.0.2", 1)).toEqual([2000]);
  });

  it("slows everyone's wrong answers once many addresses together have failed, and recovers with time", async () => {
    const c = manualClock();
    const backoff = new FailureBackoff(c.clock);
    const flood = Array.from({ length: 40 }, (_, i) => backoff.run(`10.1.0.${i}`, wrong));
    await c.release();
    await Promise.all(flood);
    const [fresh] = await failInTurn(backoff, c, "10.2.0.1", 1);
    expect(fresh).toBeGreaterThanOrEqual(4000);
    // A right secret is still answered at once.
    expect(await backoff.run("10.2.0.2", right)).toBe("link");
    c.advance(10 * 60_000);
    expect(await failInTurn(backoff, c, "10.2.0.3", 1)).toEqual([250]);
  });

  it("forgets an address's failures a quarter of an hour after its last", async () => {
    const c = manualClock();
    const backoff = new FailureBackoff(c.clock);
    await failInTurn(backoff, c, "10.0.0.1", 3);
    c.advance(16 * 60_000);
    expect(await failInTurn(backoff, c, "10.0.0.1", 1)).toEqual([250]);
  });

  it("refuses guesses past the number allowed to wait from one address", async () => {
    const c = manualClock();
    const backoff = new FailureBackoff(c.clock);
    const waiting = Array.from({ length: 64 }, () => backoff.run("10.0.0.1", wrong));
    await expect(backoff.run("10.0.0.1", wrong)).rejects.toBeInstanceOf(TooManyGuessesError);
    for (let i = 0; i < 64; i++) await c.release();
    await Promise.all(waiting);
  });

  it("counts an IPv6 client by its /64 network and an IPv4-mapped address as IPv4", () => {
    expect(clientKey("2001:db8:1:2:3:4:5:6")).toBe(clientKey("2001:db8:1:2::9"));
    expect(clientKey("2001:db8:1:2::9")).toBe("2001:db8:1:2::/64");
    expect(clientKey("::1")).toBe("::/64");
    expect(clientKey("::ffff:127.0.0.2")).toBe("127.0.0.2");
    expect(clientKey("127.0.0.2")).not.toBe(clientKey("127.0.0.1"));
  });
});
