import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SLOW_WAIT_MS, StepReport } from "./step-report";

/** A wait the test ends when it likes. */
function pending() {
  let answer: (value: string) => void = () => undefined;
  const wait = new Promise<string>((resolve) => {
    answer = resolve;
  });
  return { wait, answer };
}

describe("what a create or start says while it waits", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("names each step, and nothing more while the engine answers within a few seconds", async () => {
    const told: string[] = [];
    const steps = new StepReport((step) => told.push(step));
    steps.begin("creating the workspace's container");
    const { wait, answer } = pending();
    const answered = steps.waitFor(wait, "waiting for the Docker engine to create the workspace's container");
    await vi.advanceTimersByTimeAsync(SLOW_WAIT_MS - 1);
    answer("made");
    await expect(answered).resolves.toBe("made");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(told).toEqual(["creating the workspace's container"]);
  });

  it("says what it waits for and counts the seconds once a second while the engine is slow, then names the step again", async () => {
    const told: string[] = [];
    const steps = new StepReport((step) => told.push(step));
    steps.begin("making the workspace's disk");
    const { wait, answer } = pending();
    const answered = steps.waitFor(wait, "waiting for the Docker engine to start the disk job");
    await vi.advanceTimersByTimeAsync(SLOW_WAIT_MS + 2000);
    answer("started");
    await expect(answered).resolves.toBe("started");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(told).toEqual([
      "making the workspace's disk",
      "waiting for the Docker engine to start the disk job: 3 s",
      "waiting for the Docker engine to start the disk job: 4 s",
      "waiting for the Docker engine to start the disk job: 5 s",
      "making the workspace's disk",
    ]);
  });

  it("stops counting when the wait fails", async () => {
    const told: string[] = [];
    const steps = new StepReport((step) => told.push(step));
    steps.begin("starting the workspace's container");
    const failed = steps.waitFor(Promise.reject(new Error("no such container")), "waiting for the engine");
    await expect(failed).rejects.toThrow("no such container");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(told).toEqual(["starting the workspace's container"]);
  });
});
