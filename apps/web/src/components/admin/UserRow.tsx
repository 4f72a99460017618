"use client";

import { useMutation } from "@tanstack/react-query";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import settings from "../settings-page/settings-page.module.css";
import type { AdminUser } from "./admin-types";
import { LimitsEditor } from "./LimitsEditor";
import { ResetLinkButton } from "./ResetLinkButton";
import { usePeopleRefetch } from "./use-people-changes";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

/** One user: role, suspension, limits and delete, each refused by the service with a sentence when it may not be. */
export function UserRow({ user }: { user: AdminUser }) {
  const trpc = useTRPC();
  const refresh = usePeopleRefetch();
  const update = useMutation(trpc.user.update.mutationOptions({ meta: SHOWN_INLINE, onSuccess: refresh }));
  const remove = useMutation(trpc.user.delete.mutationOptions({ meta: SHOWN_INLINE, onSuccess: refresh }));
  const failure = update.error ?? remove.error;
  const suspended = user.suspendedAt !== null;

  function confirmDelete() {
    if (window.confirm(`Delete the account of ${user.displayName}? This cannot be undone.`)) {
      remove.mutate({ userId: user.id });
    }
  }

  return (
    <tr data-testid="admin-user-row" data-user={user.displayName}>
      <td>
        {user.displayName}
        <div className={settings.muted}>{user.email ?? "no e-mail"}</div>
      </td>
      <td>
        <select
          value={user.siteRole}
          aria-label={`Role of ${user.displayName}`}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ userId: user.id, role: e.target.value as AdminUser["siteRole"] })}
        >
          <option value="member">member</option>
          <option value="admin">admin</option>
        </select>
      </td>
      <td>
        <label>
          <input
            type="checkbox"
            checked={suspended}
            disabled={update.isPending}
            data-testid="suspend-toggle"
            onChange={(e) => update.mutate({ userId: user.id, suspended: e.target.checked })}
          />{" "}
          {suspended ? "suspended" : "active"}
        </label>
      </td>
      <td className={settings.muted}>
        {when(user.createdAt)}
        <div>seen {when(user.lastSeenAt)}</div>
      </td>
      <td>{user.workspaces}</td>
      <td>
        <LimitsEditor
          user={user}
          saving={update.isPending}
          onSave={(limits) => update.mutate({ userId: user.id, limits })}
        />
      </td>
      <td>
        {user.email !== null && <ResetLinkButton user={user} />}
        <button type="button" className="button danger" disabled={remove.isPending} onClick={confirmDelete}>
          Delete
        </button>
        {failure && (
          <div className={settings.error} role="alert">
            {errorMessage(failure)}
          </div>
        )}
      </td>
    </tr>
  );
}
