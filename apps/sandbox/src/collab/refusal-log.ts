/** People whose last refusal is remembered; past that the longest-quiet one is forgotten. */
const MAX_PEOPLE = 1000;

/**
 * Logs refusals so that no one can fill the log with them: per person, the first line, then at most
 * one line per `intervalMs`, which says how many were left out since the last one.
 */
export class RefusalLog {
  private readonly people = new Map<string, { loggedAt: number; leftOut: number }>();

  constructor(
    private readonly log: (line: string) => void,
    private readonly intervalMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Logs `line` refused from `person`, or counts it if their last line was logged too recently. */
  refused(person: string, line: string): void {
    const at = this.now();
    const last = this.people.get(person);
    if (last && at - last.loggedAt < this.intervalMs) {
      last.leftOut++;
      return;
    }
    this.log(last?.leftOut ? `${line} (and ${last.leftOut} more refusals since the last line)` : line);
    this.people.delete(person);
    this.people.set(person, { loggedAt: at, leftOut: 0 });
    const quietest = this.people.keys().next().value;
    if (this.people.size > MAX_PEOPLE && quietest !== undefined) this.people.delete(quietest);
  }
}
