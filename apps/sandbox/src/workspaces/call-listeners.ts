/** A daemon notification about one call, read: the call's id and what it carries. */
export type ParsedNotification<T> = { id: string; payload: T } | undefined;

/**
 * Who listens to a daemon's notifications about one call (a tool's progress, a search's matches),
 * keyed by workspace and call id: another workspace's daemon cannot reach a listener even if it
 * knows the id. A notification that does not parse reaches no one.
 */
export class CallListeners<T> {
  private readonly listeners = new Map<string, (payload: T) => void>();

  constructor(private readonly parse: (params: unknown) => ParsedNotification<T>) {}

  /** Follows the notifications of `id` in `workspaceId` until the returned stop. */
  listen(workspaceId: string, id: string, listener: (payload: T) => void): () => void {
    const key = `${workspaceId}/${id}`;
    this.listeners.set(key, listener);
    return () => this.listeners.delete(key);
  }

  route(workspaceId: string, params: unknown): void {
    const parsed = this.parse(params);
    if (parsed) this.listeners.get(`${workspaceId}/${parsed.id}`)?.(parsed.payload);
  }
}
