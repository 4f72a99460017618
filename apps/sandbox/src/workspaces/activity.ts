/**
 * Something that keeps workspaces in use while it lasts: open sockets and subscriptions, a running
 * agent turn, later a live co-editing document. The idle stopper asks every source.
 */
export interface ActivitySource {
  /** Whether `workspaceId` is in use through this source right now. */
  isActive(workspaceId: string): boolean;
}

/**
 * When each workspace was last used. Calls on it `touch` it; what stays open (a socket, a
 * subscription, a call still running) `hold`s it until released; other sources are asked. A
 * workspace's clock starts when it is first asked about, so one found running at start, or just
 * started, gets a full idle period.
 */
export class WorkspaceActivity {
  private readonly lastUsed = new Map<string, number>();
  private readonly holds = new Map<string, number>();
  private readonly sources: ActivitySource[] = [{ isActive: (id) => (this.holds.get(id) ?? 0) > 0 }];

  constructor(private readonly now: () => number = Date.now) {}

  addSource(source: ActivitySource): void {
    this.sources.push(source);
  }

  touch(workspaceId: string): void {
    this.lastUsed.set(workspaceId, this.now());
  }

  /** Keeps `workspaceId` in use until the returned function is called (once is enough). */
  hold(workspaceId: string): () => void {
    this.holds.set(workspaceId, (this.holds.get(workspaceId) ?? 0) + 1);
    this.touch(workspaceId);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.holds.get(workspaceId) ?? 1) - 1;
      if (left > 0) this.holds.set(workspaceId, left);
      else this.holds.delete(workspaceId);
      this.touch(workspaceId);
    };
  }

  /** How long `workspaceId` has gone unused, in ms: 0 while any source keeps it in use. */
  idleMs(workspaceId: string): number {
    const last = this.lastUsed.get(workspaceId);
    if (last === undefined || this.sources.some((s) => s.isActive(workspaceId))) {
      this.touch(workspaceId);
      return 0;
    }
    return this.now() - last;
  }

  /** Drops what is known of a workspace that was stopped or deleted. */
  forget(workspaceId: string): void {
    this.lastUsed.delete(workspaceId);
  }

  /** Drops the clocks of every workspace but these (the running ones), so the map stays bounded. */
  retainOnly(workspaceIds: ReadonlySet<string>): void {
    for (const id of this.lastUsed.keys()) if (!workspaceIds.has(id)) this.lastUsed.delete(id);
  }
}
