"use client";

import { readCredentialHost } from "@coder/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import settings from "../settings-page/settings-page.module.css";
import styles from "../workspaces/workspaces.module.css";

/**
 * The person's git tokens per host: what is stored (never the token itself, which the service
 * never answers), a form to add or replace one, and delete. Only users keep tokens; a guest
 * is told so.
 */
export function GitTokensPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.gitCredential.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.gitCredential.pathKey() });
  const remove = useMutation(trpc.gitCredential.delete.mutationOptions({ onSettled: refresh }));

  const forget = (host: string, bound: number) => {
    const where = bound > 0 ? ` Git in the ${bound} workspace(s) it is bound to loses it too.` : "";
    if (window.confirm(`Delete your token for ${host}?${where}`)) remove.mutate({ host });
  };

  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>
          <Link href="/">coder</Link>
        </h1>
        <span className={styles.subtitle}>Git tokens</span>
      </header>
      <p className={settings.note}>
        A push, pull or fetch you start from a workspace's Source Control panel uses your token for exactly
        the remote's host; the workspace never holds it. Git in a workspace's terminals or by its agent gets
        one only where you, its owner, bound it in the panel's menu.
      </p>
      <AddTokenForm onAdded={refresh} />
      {list.isPending && <p className={settings.note}>Loading your tokens…</p>}
      {list.isError && (
        <p className={settings.error} role="alert">
          {errorMessage(list.error)}
        </p>
      )}
      {list.data?.length === 0 && <p className={settings.note}>You keep no git tokens yet.</p>}
      {list.data && list.data.length > 0 && (
        <table className={settings.table} data-testid="git-tokens">
          <thead>
            <tr>
              <th>Host</th>
              <th>User name</th>
              <th>Added</th>
              <th>Bound to</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data.map((credential) => (
              <tr key={credential.host} data-testid="git-token-row">
                <td data-testid="git-token-host">{credential.host}</td>
                <td>{credential.username}</td>
                <td>{new Date(credential.created).toLocaleString()}</td>
                <td>
                  {credential.boundTo.length === 0
                    ? "—"
                    : credential.boundTo.map((w) => (
                        <Link key={w.id} href={`/w/${w.id}`} style={{ marginRight: 8 }}>
                          {w.name}
                        </Link>
                      ))}
                </td>
                <td>
                  <PendingButton
                    className="button"
                    pending={remove.isPending && remove.variables?.host === credential.host}
                    onClick={() => forget(credential.host, credential.boundTo.length)}
                    data-testid="git-token-delete"
                  >
                    Delete
                  </PendingButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

/** Host (`name[:port]`, checked as the service checks it), user name (optional) and the token. */
function AddTokenForm({ onAdded }: { onAdded: () => void }) {
  const trpc = useTRPC();
  const [host, setHost] = useState("");
  const [username, setUsername] = useState("");
  const [token, setToken] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const set = useMutation(
    trpc.gitCredential.set.mutationOptions({
      meta: SHOWN_INLINE,
      onSuccess: () => {
        // The token leaves the page as soon as the service has it.
        setHost("");
        setUsername("");
        setToken("");
        onAdded();
      },
    }),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = readCredentialHost(host);
    if ("problem" in read) {
      setProblem(read.problem);
      return;
    }
    setProblem(null);
    set.mutate({ host: read.host, token, ...(username.trim() ? { username: username.trim() } : {}) });
  };

  return (
    <form className={settings.toolbar} onSubmit={submit} data-testid="git-token-form">
      <input
        className="input"
        placeholder="Host, as in the remote URL (github.com, git.example.com:8443)"
        value={host}
        onChange={(e) => setHost(e.target.value)}
        required
        size={44}
        data-testid="git-token-host-input"
      />
      <input
        className="input"
        placeholder="User name (optional)"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        autoComplete="off"
        data-testid="git-token-username-input"
      />
      <input
        className="input"
        type="password"
        placeholder="Token"
        value={token}
        onChange={(e) => setToken(e.target.value)}
        required
        autoComplete="new-password"
        data-testid="git-token-token-input"
      />
      <PendingButton className="button" type="submit" pending={set.isPending} data-testid="git-token-add">
        Add token
      </PendingButton>
      {(problem ?? set.error) && (
        <p className={settings.error} role="alert" data-testid="git-token-problem">
          {problem ?? errorMessage(set.error)}
        </p>
      )}
    </form>
  );
}
