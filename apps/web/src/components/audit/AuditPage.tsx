"use client";

import { AUDIT_ACTIONS, type AuditAction } from "@coder/protocol";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import settings from "../settings-page/settings-page.module.css";
import styles from "../workspaces/workspaces.module.css";
import audit from "./audit.module.css";

/** The audit trail: who did what, newest first, with filters and "Load more" (admins see all, users their workspaces'). */
export function AuditPage() {
  const trpc = useTRPC();
  const [workspaceId, setWorkspaceId] = useState("");
  const [actorId, setActorId] = useState("");
  const [action, setAction] = useState<AuditAction | "">("");
  const filters = {
    ...(workspaceId.trim() ? { workspaceId: workspaceId.trim() } : {}),
    ...(actorId.trim() ? { actorId: actorId.trim() } : {}),
    ...(action ? { action } : {}),
  };
  const list = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(
      { filters, limit: 50 },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const entries = list.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>
          <Link href="/">coder</Link>
        </h1>
        <span className={styles.subtitle}>Audit</span>
      </header>
      <div className={settings.toolbar}>
        <input
          className="input"
          placeholder="Workspace id"
          value={workspaceId}
          onChange={(e) => setWorkspaceId(e.target.value)}
          data-testid="audit-workspace"
        />
        <input
          className="input"
          placeholder="Person (user or link id)"
          value={actorId}
          onChange={(e) => setActorId(e.target.value)}
          data-testid="audit-actor"
        />
        <select
          className="input"
          value={action}
          onChange={(e) => setAction(e.target.value as AuditAction | "")}
          data-testid="audit-action"
        >
          <option value="">Every action</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </div>
      {list.isError && (
        <p className={styles.loadError} role="alert">
          Could not load the audit trail: {errorMessage(list.error)}
        </p>
      )}
      {list.isPending && (
        <p className={styles.placeholder}>
          <span className="spinner" /> Loading the audit trail…
        </p>
      )}
      {list.isSuccess && entries.length === 0 && (
        <p className={styles.placeholder}>Nothing recorded matches.</p>
      )}
      {entries.length > 0 && (
        <table className={settings.table} data-testid="audit-entries">
          <thead>
            <tr>
              <th>When</th>
              <th>Who</th>
              <th>Action</th>
              <th>Workspace</th>
              <th>Target</th>
              <th>From</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>{new Date(entry.at).toLocaleString()}</td>
                <td title={entry.actor.id ?? undefined}>
                  {entry.actor.name} ({entry.actor.kind})
                </td>
                <td>{entry.action}</td>
                <td>{entry.workspaceId ?? ""}</td>
                <td>{entry.target ?? ""}</td>
                <td title={entry.userAgent ?? undefined}>{entry.address ?? ""}</td>
                <td className={audit.detail}>{entry.detail === null ? "" : JSON.stringify(entry.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.hasNextPage && (
        <button
          type="button"
          className="button"
          disabled={list.isFetchingNextPage}
          onClick={() => list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      )}
    </main>
  );
}
