import type { PreviewTarget } from "./preview-host";

const key = (t: PreviewTarget) => `${t.workspaceId}:${t.port}`;

/**
 * The WebSockets open through preview origins (a dev server's hot reload), by port, so that a
 * visibility change or a stopping workspace closes them at once; a logout or revocation finds
 * them through the connection registry, where each is registered too.
 */
export class PreviewSockets {
  private readonly open = new Map<string, Set<() => void>>();

  /** Tracks one socket; `end` closes it. Returns the call to make when it closed by itself. */
  add(target: PreviewTarget, end: () => void): () => void {
    const k = key(target);
    let set = this.open.get(k);
    if (!set) {
      set = new Set();
      this.open.set(k, set);
    }
    const mine = set;
    mine.add(end);
    return () => {
      mine.delete(end);
      if (mine.size === 0 && this.open.get(k) === mine) this.open.delete(k);
    };
  }

  /** How many are open on the port. */
  count(target: PreviewTarget): number {
    return this.open.get(key(target))?.size ?? 0;
  }

  /** Closes every socket open on the port. */
  endPort(target: PreviewTarget): void {
    const set = this.open.get(key(target));
    this.open.delete(key(target));
    for (const end of set ?? []) end();
  }

  endAll(): void {
    const all = [...this.open.values()];
    this.open.clear();
    for (const set of all) for (const end of set) end();
  }

  /** Closes every socket open on any port of the workspace. */
  endWorkspace(workspaceId: string): void {
    for (const k of [...this.open.keys()]) {
      if (!k.startsWith(`${workspaceId}:`)) continue;
      const set = this.open.get(k);
      this.open.delete(k);
      for (const end of set ?? []) end();
    }
  }
}
