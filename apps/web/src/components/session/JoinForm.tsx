"use client";

import { type FormEvent, useState } from "react";
import { joinShare } from "../../lib/auth/auth-requests";
import styles from "./login-form.module.css";

export function JoinForm({ secret }: { secret: string }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

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

  return (
    <main className={styles.page}>
      <form className={styles.card} onSubmit={submit}>
        <h1 className={styles.title}>Join a shared workspace</h1>
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
        <button type="submit" className="button primary" data-testid="join-submit" disabled={pending}>
          {pending && <span className="spinner" />}
          Join
        </button>
      </form>
    </main>
  );
}
