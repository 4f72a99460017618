"use client";

import { gitBranchName } from "@coder/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import styles from "./source-control.module.css";

/**
 * Switches to another branch (a remote one becomes a local branch that tracks it, as `git switch`
 * does) or creates one from HEAD. Shown to editors and owners only.
 */
export function BranchPicker({ workspaceId, current }: { workspaceId: string; current: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const branches = useQuery(trpc.git.branches.queryOptions({ workspaceId }));
  const checkout = useMutation(
    trpc.git.checkout.mutationOptions({
      meta: SHOWN_INLINE,
      onSuccess: () => setCreating(null),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.git.pathKey() }),
    }),
  );
  const [creating, setCreating] = useState<string | null>(null);
  const local = branches.data?.branches.filter((b) => !b.remote) ?? [];
  const localNames = new Set(local.map((b) => b.name));
  // origin/feature is offered as "feature" when no local branch has that name yet.
  const remoteOnly = (branches.data?.branches ?? [])
    .filter((b) => b.remote)
    .map((b) => ({ remoteName: b.name, name: b.name.slice(b.name.indexOf("/") + 1) }))
    .filter((b) => !localNames.has(b.name));
  const checked = creating === null ? null : gitBranchName.safeParse(creating.trim());

  return (
    <div className={styles.branchPicker}>
      <div className={styles.line}>
        <select
          className={styles.select}
          data-testid="branch-select"
          aria-label="Switch branch"
          value={current ?? ""}
          disabled={checkout.isPending}
          onChange={(e) => {
            checkout.reset();
            checkout.mutate({ workspaceId, branch: e.target.value });
          }}
        >
          {current === null && <option value="">(detached HEAD)</option>}
          {local.map((b) => (
            <option key={b.name} value={b.name}>
              {b.name}
            </option>
          ))}
          {remoteOnly.map((b) => (
            <option key={b.remoteName} value={b.name}>
              {b.remoteName}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button"
          data-testid="branch-new"
          onClick={() => setCreating((name) => (name === null ? "" : null))}
        >
          New branch
        </button>
      </div>
      {creating !== null && (
        <form
          className={styles.line}
          onSubmit={(e) => {
            e.preventDefault();
            if (checked?.success) checkout.mutate({ workspaceId, branch: checked.data, create: true });
          }}
        >
          <input
            type="text"
            className={styles.field}
            data-testid="branch-name"
            aria-label="New branch name"
            placeholder="Branch name (from HEAD)"
            value={creating}
            // biome-ignore lint/a11y/noAutofocus: the person just asked to type a name
            autoFocus
            onChange={(e) => setCreating(e.target.value)}
          />
          <PendingButton
            type="submit"
            pending={checkout.isPending}
            className="button primary"
            data-testid="branch-create"
            disabled={!checked?.success}
          >
            Create
          </PendingButton>
        </form>
      )}
      {creating && checked && !checked.success && (
        <p className={styles.error}>{checked.error.issues[0]?.message}</p>
      )}
      {checkout.isError && (
        <p className={styles.error} role="alert" data-testid="branch-error">
          {errorMessage(checkout.error)}
        </p>
      )}
      {branches.data?.truncated && <p className={styles.muted}>Only the first branches are listed.</p>}
    </div>
  );
}
