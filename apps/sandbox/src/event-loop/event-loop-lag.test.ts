import { performance } from "node:perf_hooks";
import { afterEach, describe, expect, it } from "vitest";
import { stallTheService } from "../testing/stall-the-service";
import { EventLoopLag } from "./event-loop-lag";
import { lagForgivingTimer } from "./lag-forgiving-timer";

describe("the service's event loop lag", () => {
  let lag: EventLoopLag;
  afterEach(() => lag.stop());

  it("counts a stall of the loop at once, while it is still under way", () => {
    lag = new EventLoopLag();
    const before = lag.total();
    stallTheService(600);
    // The 100 ms sample was due 500 ms ago and could not run: that is lag already.
    expect(lag.total() - before).toBeGreaterThanOrEqual(450);
    expect(lag.recent()).toBeGreaterThanOrEqual(450);
  });

  it("lets a wait the loop stalled through run on for what it missed", async () => {
    lag = new EventLoopLag();
    const waitMs = 400;
    const expired = new Promise<number>((resolve) =>
      lagForgivingTimer(waitMs, lag, () => resolve(performance.now())),
    );
    stallTheService(1000);
    const stallEnded = performance.now();
    // A plain timer would fire as soon as the stall ends; this one waits its 400 ms again, less
    // the stall's first 100 ms (no sample was due yet, so they are not seen as lag).
    expect((await expired) - stallEnded).toBeGreaterThanOrEqual(waitMs - 100 - 50);
  });
});
