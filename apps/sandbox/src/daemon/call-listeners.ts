/**
 * Who listens to a daemon's notifications about one call (a tool's progress, a search's matches),
 * keyed by workspace and call id: another workspace's daemon cannot reach a listener even if it
 * knows the id. The notifications were checked against the contract before they arrive here
 * (DaemonConnection).
 */
export class CallListeners<T> {
  private readonly listeners = new Map<string, (payload: T) => void>();

  /** Follows the notifications of `id` in `workspaceId` until the returned stop. */
  listen(workspaceId: string, id: string, listener: (payload: T) => void): () => void {
    const key = `${workspaceId}/${id}`;
    this.listeners.set(key, listener);
    return () => this.listeners.delete(key);
  }

  route(workspaceId: string, id: string, payload: T): void {
    this.listeners.get(`${workspaceId}/${id}`)?.(payload);
  }

  /** Tells every call of `workspaceId` being listened to. */
  routeToAll(workspaceId: string, payload: T): void {
    for (const [key, listener] of this.listeners) if (key.startsWith(`${workspaceId}/`)) listener(payload);
  }
}
