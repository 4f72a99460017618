import type { LiveBus } from "../events/live-bus";
import { noticeWakeups } from "../events/notice-wakeups";

/** One key for the whole list: the admin page re-reads all of it whoever changed. */
const EVERYONE = "everyone";

/**
 * Word, to every service instance, that the service's people changed: someone joined (an
 * invitation, a first OIDC sign-in), or an admin changed or deleted an account. The administration
 * page follows it and re-reads the list, so a newcomer appears there without a reload.
 */
export class PeopleChanges {
  constructor(
    private readonly bus: LiveBus,
    private readonly log: (line: string) => void,
  ) {}

  /** Announces a change already committed. */
  announce(): void {
    this.bus.notify("people", EVERYONE).catch((err: Error) => this.log(`people changes: ${err.message}`));
  }

  /** Yields at once (whatever changed before the follower came), then after each change, until `signal` aborts. */
  follow(signal: AbortSignal): AsyncGenerator<void> {
    return noticeWakeups(this.bus, "people", EVERYONE, signal);
  }
}
