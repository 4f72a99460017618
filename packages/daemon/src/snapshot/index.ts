import type { DaemonHandler } from "../rpc/dispatch";
import { SnapshotStore, type SnapshotStoreOptions } from "./snapshot-store";

type SnapshotMethod = "snapshot.take" | "snapshot.diff" | "snapshot.restore";

/** snapshot.take, snapshot.diff and snapshot.restore over one store for the workspace `root`. */
export function snapshotMethods(
  root: string,
  gitDir: string,
  options?: SnapshotStoreOptions,
): { [M in SnapshotMethod]: DaemonHandler<M> } {
  const store = new SnapshotStore({ gitDir, workTree: root }, options);
  return {
    "snapshot.take": async () => ({ id: await store.take() }),
    "snapshot.diff": (params) => store.diff(params.from, params.to),
    "snapshot.restore": (params) => store.restore(params.from, params.to, params.paths),
  };
}
