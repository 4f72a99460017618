"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import settings from "../settings-page/settings-page.module.css";
import type { AdminUser, AdminWorkspace } from "./admin-types";

/** Every workspace of the service with its owner, state and what it takes while it runs; an admin may give one away. */
export function WorkspacesTable({ users }: { users: AdminUser[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.admin.workspaces.queryOptions());
  const transfer = useMutation(
    trpc.workspace.transfer.mutationOptions({
      meta: SHOWN_INLINE,
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.admin.workspaces.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.user.list.queryKey() });
      },
    }),
  );
  const use = (w: AdminWorkspace) =>
    w.use
      ? `${w.use.memoryMb} MB, ${w.use.cpus} CPU${w.use.cpus === 1 ? "" : "s"}, ${w.use.diskMb || "∞"} MB disk`
      : "—";

  if (list.isError)
    return <p className={settings.error}>Could not load the workspaces: {errorMessage(list.error)}</p>;
  return (
    <>
      {transfer.error && (
        <p className={settings.error} role="alert">
          {errorMessage(transfer.error)}
        </p>
      )}
      <table className={settings.table} data-testid="admin-workspaces">
        <thead>
          <tr>
            <th>Workspace</th>
            <th>State</th>
            <th>Owner</th>
            <th>Resources while running</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.map((w) => (
            <tr key={w.id}>
              <td>{w.name}</td>
              <td>{w.status}</td>
              <td>
                <select
                  value={w.owner?.id ?? ""}
                  aria-label={`Owner of ${w.name}`}
                  disabled={transfer.isPending}
                  onChange={(e) => transfer.mutate({ workspaceId: w.id, userId: e.target.value })}
                >
                  {!w.owner && <option value="">nobody</option>}
                  {users.map((u) => (
                    <option key={u.id} value={u.id}>
                      {u.displayName}
                    </option>
                  ))}
                </select>
              </td>
              <td className={settings.muted}>{use(w)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
