import type { Speaker } from "./speaker";

/** A person who leaves and is back within this long (a reload, a dropped connection) was never gone. */
export const LEAVE_GRACE_MS = 4000;

export type PeopleNotice = "joined" | "left" | "revoked";

/**
 * Turns people coming and going into the talk's notices: "joined" at a person's first tab, "left"
 * once their last tab has been gone for the grace (a reload says nothing), "revoked" when their
 * link was revoked (then no "left" follows).
 */
export class PeopleNotices {
  /** Departures waiting out the grace, by workspace and person. */
  private readonly leaving = new Map<string, NodeJS.Timeout>();
  /** People just revoked, whose tabs are closing: their departure says nothing more. */
  private readonly revokedNow = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly post: (workspaceId: string, notice: PeopleNotice, person: Speaker) => void,
    private readonly graceMs = LEAVE_GRACE_MS,
  ) {}

  arrived(workspaceId: string, person: Speaker): void {
    if (this.cancel(workspaceId, person)) return;
    this.post(workspaceId, "joined", person);
  }

  departed(workspaceId: string, person: Speaker): void {
    const key = keyOf(workspaceId, person);
    if (this.revokedNow.has(key)) return;
    clearTimeout(this.leaving.get(key));
    const timer = setTimeout(() => {
      this.leaving.delete(key);
      this.post(workspaceId, "left", person);
    }, this.graceMs);
    timer.unref();
    this.leaving.set(key, timer);
  }

  revoked(workspaceId: string, person: Speaker): void {
    this.cancel(workspaceId, person);
    const key = keyOf(workspaceId, person);
    clearTimeout(this.revokedNow.get(key));
    const timer = setTimeout(() => this.revokedNow.delete(key), this.graceMs);
    timer.unref();
    this.revokedNow.set(key, timer);
    this.post(workspaceId, "revoked", person);
  }

  /** Drops the departures still waiting (the service stops: nobody left because of that). */
  close(): void {
    for (const timer of [...this.leaving.values(), ...this.revokedNow.values()]) clearTimeout(timer);
    this.leaving.clear();
    this.revokedNow.clear();
  }

  /** Forgets a waiting departure of the person; says whether there was one. */
  private cancel(workspaceId: string, person: Speaker): boolean {
    const key = keyOf(workspaceId, person);
    const timer = this.leaving.get(key);
    if (!timer) return false;
    clearTimeout(timer);
    this.leaving.delete(key);
    return true;
  }
}

const keyOf = (workspaceId: string, person: Speaker) => `${workspaceId}\n${person.key}`;
