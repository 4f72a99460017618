"use client";

import type { Workspace } from "@coder/protocol";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import { ImportProgressBar } from "./ImportProgressBar";
import styles from "./import.module.css";

/** Where the workspace's files came from, in a few words. */
function originText(origin: NonNullable<Workspace["import"]>["origin"]): string {
  if (origin.type === "upload") return `from ${origin.name}`;
  return `from ${origin.url}${origin.ref ? ` @ ${origin.ref}` : ""}`;
}

/**
 * A workspace's import: where from, its progress while it runs, what an archive skipped, and a
 * retry (asking for the token again for a private repository) when a clone failed, for the owner.
 */
export function ImportStatus({ workspace, owner }: { workspace: Workspace; owner: boolean }) {
  const imported = workspace.import;
  if (!imported) return null;
  return (
    <>
      <span className={styles.origin} data-testid="import-origin">
        {originText(imported.origin)}
      </span>
      {imported.state === "running" && workspace.status === "creating" && (
        <ImportProgressBar progress={imported.progress} />
      )}
      {imported.report && imported.report.skippedTotal > 0 && (
        <details className={styles.skipped} data-testid="import-skipped">
          <summary>{imported.report.skippedTotal} archive entries were not unpacked</summary>
          <ul>
            {imported.report.skipped.map((entry) => (
              <li key={entry.path}>
                {entry.path}: {entry.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {owner &&
        imported.state === "failed" &&
        imported.origin.type === "git" &&
        workspace.status === "error" && (
          <RetryImport workspaceId={workspace.id} needsToken={imported.origin.private} />
        )}
    </>
  );
}

function RetryImport({ workspaceId, needsToken }: { workspaceId: string; needsToken: boolean }) {
  const trpc = useTRPC();
  const retry = useMutation(trpc.workspace.retryImport.mutationOptions());
  const [token, setToken] = useState("");
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    retry.mutate({ workspaceId, ...(token ? { token } : {}) });
  }
  return (
    <form className={styles.retry} onSubmit={submit}>
      <input
        type="password"
        data-testid="import-retry-token"
        placeholder={needsToken ? "the repository's token" : "token, if it is private"}
        aria-label="Access token"
        autoComplete="off"
        value={token}
        onChange={(event) => setToken(event.target.value)}
      />
      <PendingButton
        pending={retry.isPending}
        type="submit"
        className="button"
        data-testid="import-retry"
        disabled={retry.isPending || (needsToken && !token)}
      >
        Retry the import
      </PendingButton>
    </form>
  );
}
