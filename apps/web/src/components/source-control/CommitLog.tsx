"use client";

import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import styles from "./source-control.module.css";

/** How many of the last commits the panel lists. */
const COMMITS_SHOWN = 30;

/** The last commits on HEAD: subject, author and when. */
export function CommitLog({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const log = useQuery(trpc.git.log.queryOptions({ workspaceId, limit: COMMITS_SHOWN }));
  return (
    <section className={styles.log} data-testid="commit-log" aria-label="Commits">
      <div className={styles.groupHeader}>Commits</div>
      {log.isError && <p className={styles.error}>{errorMessage(log.error)}</p>}
      {log.data?.length === 0 && <p className={styles.muted}>No commits yet.</p>}
      {log.data?.map((commit) => (
        <div
          key={commit.hash}
          className={styles.commit}
          data-testid="commit-entry"
          title={`${commit.hash}\n${commit.authorName} <${commit.authorEmail}>\n${new Date(commit.date).toLocaleString()}`}
        >
          <span className={styles.subject}>{commit.subject}</span>
          <span className={styles.muted}>
            {commit.hash.slice(0, 7)} · {commit.authorName} · {new Date(commit.date).toLocaleDateString()}
          </span>
        </div>
      ))}
    </section>
  );
}
