/**
 * How long one wait of a create or start (an engine's answer, say) may take before the person
 * waiting is told what it waits for: a healthy engine answers well within it.
 */
export const SLOW_WAIT_MS = 3000;
/** How often a slow wait tells how long it has lasted so far. */
const TICK_MS = 1000;

/** Hears what a create or start is doing, in words for a person. */
export type StepListener = (step: string) => void;

/**
 * What one create or start of a workspace is doing, for a person watching it: each step as it
 * begins ("creating the workspace's container"), and, while one wait of it takes longer than a few
 * seconds, what it waits for and how long so far, once a second ("waiting for the Docker engine to
 * start the disk job: 25 s"). On a busy machine a step can take minutes: the screen keeps moving.
 */
export class StepReport {
  private step: string | undefined;

  constructor(private readonly listener?: StepListener) {}

  /** A step begins. */
  begin(step: string): void {
    this.step = step;
    this.listener?.(step);
  }

  /**
   * `wait`'s outcome; should it take longer than SLOW_WAIT_MS, `waitingFor` is told each second
   * with the time so far, and the step again once it ended.
   */
  async waitFor<T>(wait: Promise<T>, waitingFor: string): Promise<T> {
    const listener = this.listener;
    if (!listener) return wait;
    const started = Date.now();
    let slow = false;
    const tell = () => {
      slow = true;
      listener(`${waitingFor}: ${Math.round((Date.now() - started) / 1000)} s`);
      timer = setTimeout(tell, TICK_MS);
    };
    let timer = setTimeout(tell, SLOW_WAIT_MS);
    try {
      return await wait;
    } finally {
      clearTimeout(timer);
      if (slow && this.step) listener(this.step);
    }
  }
}
