"use client";

import { useState } from "react";
import { joinShare, previewShare, type SharePreview } from "../../lib/auth/auth-requests";
import { PendingButton } from "../controls/PendingButton";
import { LinkPage } from "./LinkPage";
import styles from "./login-form.module.css";
import { useSignInSubmit } from "./use-sign-in-submit";

/** What each role lets a guest do, in the words the join page uses. */
const ROLE_HINT = {
  viewer: "You can watch: files, terminals and the agent, without changing anything.",
  editor: "You can edit files, type in the terminals and work with the agent.",
} as const;

export function JoinForm({ secret }: { secret: string }) {
  return (
    <LinkPage
      load={() => previewShare(secret)}
      refusedTitle="Cannot join"
      refusedHint="Ask the person who shared it for a new link."
      errorTestId="join-error"
    >
      {(preview) => <GuestNameForm secret={secret} preview={preview} />}
    </LinkPage>
  );
}

/** The name a guest joins under. */
function GuestNameForm({
  secret,
  preview,
}: {
  secret: string;
  preview: Extract<SharePreview, { ok: true }>;
}) {
  const [name, setName] = useState("");
  const { submit, error, pending } = useSignInSubmit(async () => {
    const outcome = await joinShare(secret, name);
    return outcome.ok ? { ok: true, next: outcome.workspaceId ? `/w/${outcome.workspaceId}` : "/" } : outcome;
  });

  return (
    <form className={styles.card} onSubmit={submit}>
      <h1 className={styles.title} data-testid="join-title">
        Join <span className={styles.workspace}>{preview.workspace}</span> as {preview.role}
      </h1>
      <p className={styles.hint}>{ROLE_HINT[preview.role]}</p>
      <label className={styles.label} htmlFor="join-name">
        Your name
      </label>
      <input
        id="join-name"
        data-testid="join-name"
        maxLength={64}
        autoComplete="name"
        // biome-ignore lint/a11y/noAutofocus: the only field of a page whose only job is this field
        autoFocus
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <p className={styles.hint}>Everyone in the workspace sees this name.</p>
      {error && (
        <p className={styles.error} data-testid="join-error" role="alert">
          {error}
        </p>
      )}
      <PendingButton pending={pending} type="submit" className="button primary" data-testid="join-submit">
        Join
      </PendingButton>
    </form>
  );
}
