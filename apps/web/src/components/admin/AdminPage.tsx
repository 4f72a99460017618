"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { LogoutButton } from "../session/LogoutButton";
import settings from "../settings-page/settings-page.module.css";
import pageStyles from "../workspaces/workspaces.module.css";
import styles from "./admin.module.css";
import { InviteForm } from "./InviteForm";
import { UserRow } from "./UserRow";
import { usePeopleChanges } from "./use-people-changes";
import { WorkspacesTable } from "./WorkspacesTable";

/** The administration page: the service's people and every workspace (the service refuses anyone but an admin). */
export function AdminPage() {
  const trpc = useTRPC();
  const users = useQuery(trpc.user.list.queryOptions());
  usePeopleChanges();
  return (
    <main className={pageStyles.page} style={{ maxWidth: 1200 }}>
      <header className={pageStyles.header}>
        <h1 className={pageStyles.title}>coder</h1>
        <span className={pageStyles.subtitle}>Administration</span>
        <span className={pageStyles.spacer} />
        <Link className="button" href="/">
          Workspaces
        </Link>
        <LogoutButton />
      </header>
      {users.isError && (
        <p className={settings.error} role="alert">
          {errorMessage(users.error)}
        </p>
      )}
      {users.data && (
        <>
          <section className={styles.section}>
            <div className={styles.sectionHeader}>
              <h2>People</h2>
              <InviteForm />
            </div>
            <table className={settings.table} data-testid="admin-users">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Role</th>
                  <th>Access</th>
                  <th>Since</th>
                  <th>Workspaces</th>
                  <th>Limits (empty: the default)</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {users.data.map((user) => (
                  <UserRow key={user.id} user={user} />
                ))}
              </tbody>
            </table>
          </section>
          <section className={styles.section}>
            <h2>Workspaces</h2>
            <WorkspacesTable users={users.data} />
          </section>
        </>
      )}
    </main>
  );
}
