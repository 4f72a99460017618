"use client";

import { createWorkspaceInput } from "@coder/protocol";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "../../lib/trpc/client";
import { applyWorkspaceEvent } from "./workspace-events";
import styles from "./workspaces.module.css";

export function CreateWorkspaceForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [egress, setEgress] = useState(false);
  const [invalid, setInvalid] = useState<string | null>(null);

  const create = useMutation(
    trpc.workspace.create.mutationOptions({
      onSuccess: (workspace) => {
        // Show the new row at once; its progress then arrives as events.
        queryClient.setQueryData(trpc.workspace.list.queryKey(), (list) =>
          applyWorkspaceEvent(list, { type: "upsert", workspace }),
        );
        setName("");
        setEgress(false);
      },
    }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = createWorkspaceInput.safeParse({ name, egress });
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? "check the name");
      return;
    }
    setInvalid(null);
    create.mutate(parsed.data);
  }

  return (
    <form className={styles.createForm} onSubmit={submit}>
      <input
        type="text"
        data-testid="workspace-name"
        placeholder="New workspace name"
        aria-label="Workspace name"
        maxLength={64}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <label className={styles.checkbox}>
        <input
          type="checkbox"
          data-testid="workspace-egress"
          checked={egress}
          onChange={(event) => setEgress(event.target.checked)}
        />
        Allow network egress
      </label>
      <button
        type="submit"
        className="button primary"
        data-testid="workspace-create"
        disabled={create.isPending}
      >
        {create.isPending && <span className="spinner" />}
        Create workspace
      </button>
      {invalid && <span className={styles.inlineError}>{invalid}</span>}
    </form>
  );
}
