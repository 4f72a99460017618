"use client";

import { type FormEvent, useEffect, useState } from "react";
import { joinShare, previewShare, type SharePreview } from "../../lib/auth/auth-requests";
import { PendingButton } from "../controls/PendingButton";
import styles from "./login-form.module.css";

/** What each role lets a guest do, in the words the join page uses. */
const ROLE_HINT = {
  viewer: "You can watch: files, terminals and the agent, without changing anything.",
  editor: "You can edit files, type in the terminals and work with the agent.",
} as const;

export function JoinForm({ secret }: { secret: string }) {
  const [preview, setPreview] = useState<SharePreview | null>(null);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    void previewShare(secret).then(setPreview);
  }, [secret]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const outcome = await joinShare(secret, name);
    if (outcome.ok) {
      // A full load, so every request from here on carries the guest cookie.
      window.location.assign(outcome.workspaceId ? `/w/${outcome.workspaceId}` : "/");
      return;
    }
    setError(outcome.error);
    setPending(false);
  }

  if (preview === null) {
    return (
      <main className={styles.page}>
        <p className={styles.card}>
          <span className="spinner" /> Opening the link…
        </p>
      </main>
    );
  }
  if (!preview.ok) {
    return (
      <main className={styles.page}>
        <div className={styles.card}>
          <h1 className={styles.title}>Cannot join</h1>
          <p className={styles.error} data-testid="join-error" role="alert">
            {preview.error}
          </p>
          <p className={styles.hint}>Ask the person who shared it for a new link.</p>
        </div>
      </main>
    );
  }
  return (
    <main className={styles.page}>
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
    </main>
  );
}
