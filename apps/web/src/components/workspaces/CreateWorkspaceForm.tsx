"use client";

import { createWorkspaceInput, gitSource, type WorkspaceSource } from "@coder/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { uploadFile } from "../../lib/upload/upload-file";
import { PendingButton } from "../controls/PendingButton";
import { EMPTY_SOURCE, type SourceDraft, SourceFields } from "./SourceFields";
import { applyWorkspaceEvent } from "./workspace-events";
import styles from "./workspaces.module.css";

/** The git source the fields describe, or the first problem with it. */
function gitFrom(draft: SourceDraft): { source: WorkspaceSource } | { problem: string } {
  const parsed = gitSource.safeParse({
    type: "git",
    url: draft.url,
    ref: draft.ref.trim() || undefined,
    token: draft.token || undefined,
    depth: draft.shallow ? 1 : undefined,
  });
  return parsed.success
    ? { source: parsed.data }
    : { problem: parsed.error.issues[0]?.message ?? "check the URL" };
}

export function CreateWorkspaceForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [egress, setEgress] = useState(false);
  const [draft, setDraft] = useState<SourceDraft>(EMPTY_SOURCE);
  const [uploading, setUploading] = useState<number | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);

  const me = useQuery(trpc.workspace.whoami.queryOptions()).data;
  const create = useMutation(
    trpc.workspace.create.mutationOptions({
      meta: SHOWN_INLINE,
      onSuccess: (workspace) => {
        // Show the new row at once, as the caller's own; its progress then arrives as events.
        const owner = me?.userId ? { id: me.userId, name: me.name } : null;
        queryClient.setQueryData(trpc.workspace.list.queryKey(), (list) =>
          applyWorkspaceEvent(list, { type: "upsert", workspace: { ...workspace, role: "owner", owner } }),
        );
        setName("");
        setEgress(false);
        setDraft(EMPTY_SOURCE);
      },
    }),
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.reset();
    const parsed = createWorkspaceInput.safeParse({ name, egress });
    if (!parsed.success) return setInvalid(parsed.error.issues[0]?.message ?? "check the name");
    let source: WorkspaceSource | undefined;
    if (draft.kind === "git") {
      const git = gitFrom(draft);
      if ("problem" in git) return setInvalid(git.problem);
      source = git.source;
    } else if (draft.kind === "upload") {
      if (!draft.file) return setInvalid("choose a .zip, .tar or .tar.gz file");
      setInvalid(null);
      setUploading(0);
      try {
        source = { type: "upload", uploadId: await uploadFile(draft.file, draft.file.name, setUploading) };
      } catch (error) {
        return setInvalid(errorMessage(error));
      } finally {
        setUploading(null);
      }
    }
    setInvalid(null);
    create.mutate({ ...parsed.data, ...(source ? { source } : {}) });
  }

  const busy = create.isPending || uploading !== null;
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
      <PendingButton pending={busy} type="submit" className="button primary" data-testid="workspace-create">
        {uploading !== null ? `Uploading ${uploading}%` : "Create workspace"}
      </PendingButton>
      <SourceFields draft={draft} onChange={setDraft} />
      {(invalid ?? create.error) && (
        <span className={styles.inlineError} role="alert" data-testid="workspace-create-problem">
          {invalid ?? errorMessage(create.error)}
        </span>
      )}
    </form>
  );
}
