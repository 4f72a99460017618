import { workspacePath } from "@coder/protocol";
import { z } from "zod";
import { defineMethod } from "../rpc/dispatch";
import { SnapshotStore, type SnapshotStoreOptions } from "./snapshot-store";

const snapshotId = z.string().regex(/^([0-9a-f]{40}|[0-9a-f]{64})$/, "not a snapshot id");

/** snapshot.take, snapshot.diff and snapshot.restore over one store for the workspace `root`. */
export function snapshotMethods(root: string, gitDir: string, options?: SnapshotStoreOptions) {
  const store = new SnapshotStore({ gitDir, workTree: root }, options);
  return {
    "snapshot.take": defineMethod({
      params: z.object({}),
      run: async () => ({ id: await store.take() }),
    }),
    "snapshot.diff": defineMethod({
      params: z.object({ from: snapshotId, to: snapshotId.optional() }),
      run: (params) => store.diff(params.from, params.to),
    }),
    "snapshot.restore": defineMethod({
      params: z.object({ from: snapshotId, to: snapshotId, paths: z.array(workspacePath).optional() }),
      run: (params) => store.restore(params.from, params.to, params.paths),
    }),
  };
}
