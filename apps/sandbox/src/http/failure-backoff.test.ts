import { describe, expect, it } from "vitest";
import { FailureBackoff } from "./failure-backoff";

describe("slowing down repeated wrong share-link secrets", () => {
  it("makes each further failure from one address wait longer, up to a bound, and leaves other addresses alone", () => {
    const backoff = new FailureBackoff();
    expect(backoff.delayFor("10.0.0.1")).toBe(0);
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      backoff.fail("10.0.0.1");
      delays.push(backoff.delayFor("10.0.0.1"));
    }
    expect(delays.slice(0, 3)).toEqual([250, 500, 1000]);
    expect(Math.max(...delays)).toBe(8000);
    expect(backoff.delayFor("10.0.0.2")).toBe(0);
  });

  it("forgets an address once it joins successfully", () => {
    const backoff = new FailureBackoff();
    backoff.fail("10.0.0.1");
    backoff.succeed("10.0.0.1");
    expect(backoff.delayFor("10.0.0.1")).toBe(0);
  });

  it("remembers a bounded number of addresses, forgetting the oldest first", () => {
    const backoff = new FailureBackoff();
    for (let i = 0; i <= 10_000; i++) backoff.fail(`a${i}`);
    expect(backoff.delayFor("a0")).toBe(0);
    expect(backoff.delayFor("a10000")).toBe(250);
  });
});
