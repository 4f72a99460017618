"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import styles from "./source-control.module.css";

const WARNING =
  "Git in this workspace's terminals and run by its agent will log in to this host with your token. " +
  "Every push by the agent still asks you first, but any process in the workspace can use the token " +
  "while it is bound (git credential fill hands it out): bind it only to workspaces whose code you trust.";

/**
 * The owner's menu of tokens bound to the workspace (for git outside the panel: terminals, the
 * agent): which hosts are bound, unbind, and bind one of their stored hosts after a warning.
 */
export function CredentialBindings({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const bindings = useQuery(trpc.gitCredential.bindings.queryOptions({ workspaceId }, { enabled: open }));
  const stored = useQuery(trpc.gitCredential.list.queryOptions(undefined, { enabled: open }));
  const options = {
    onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.gitCredential.pathKey() }),
  };
  const bind = useMutation(trpc.gitCredential.bind.mutationOptions(options));
  const unbind = useMutation(trpc.gitCredential.unbind.mutationOptions(options));
  const bound = new Set(bindings.data?.hosts ?? []);
  const unbound = (stored.data ?? []).filter((credential) => !bound.has(credential.host));

  return (
    <details
      className={styles.remote}
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid="git-bindings"
    >
      <summary>Tokens for terminal and agent git</summary>
      <p className={styles.muted}>{WARNING}</p>
      {[...bound].map((host) => (
        <div className={styles.line} key={host} data-testid="git-binding">
          <span>{host}</span>
          <PendingButton
            className="button"
            pending={unbind.isPending && unbind.variables?.host === host}
            onClick={() => unbind.mutate({ workspaceId, host })}
            data-testid="git-unbind"
          >
            Unbind
          </PendingButton>
        </div>
      ))}
      {unbound.map((credential) => (
        <div className={styles.line} key={credential.host}>
          <span>{credential.host}</span>
          <PendingButton
            className="button"
            pending={bind.isPending && bind.variables?.host === credential.host}
            onClick={() => {
              if (window.confirm(`Bind your token for ${credential.host} to this workspace?\n\n${WARNING}`))
                bind.mutate({ workspaceId, host: credential.host });
            }}
            data-testid="git-bind"
          >
            Bind
          </PendingButton>
        </div>
      ))}
      {stored.data?.length === 0 && <p className={styles.muted}>You keep no git tokens yet.</p>}
      <Link href="/settings/git" className={styles.muted}>
        Manage your git tokens
      </Link>
    </details>
  );
}
