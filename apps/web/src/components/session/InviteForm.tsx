"use client";

import { type FormEvent, useEffect, useState } from "react";
import { acceptInvite, type InvitePreview, previewInvite } from "../../lib/auth/password-requests";
import { PendingButton } from "../controls/PendingButton";
import styles from "./login-form.module.css";

export function InviteForm({ secret }: { secret: string }) {
  const [preview, setPreview] = useState<InvitePreview | null>(null);
  const [displayName, setDisplayName] = useState("");
  const [password, setPassword] = useState("");
  const [repeated, setRepeated] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    void previewInvite(secret).then(setPreview);
  }, [secret]);

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
          <h1 className={styles.title}>Invitation</h1>
          <p className={styles.error} data-testid="invite-error" role="alert">
            {preview.error}
          </p>
        </div>
      </main>
    );
  }
  const invited = preview.kind === "invite";

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const outcome = await acceptInvite(secret, {
      displayName: invited ? displayName : undefined,
      password,
      repeated,
    });
    if (outcome.ok) {
      // A full load, so every request from here on carries the new cookie.
      window.location.assign("/");
      return;
    }
    setError(outcome.error);
    setPending(false);
  }

  return (
    <main className={styles.page}>
      <form className={styles.card} onSubmit={submit}>
        <h1 className={styles.title}>{invited ? "Welcome to coder" : "Set a new password"}</h1>
        <p className={styles.hint} data-testid="invite-email">
          {invited ? "Your account: " : "For "}
          <span className={styles.workspace}>{preview.email}</span>
        </p>
        {invited && (
          <>
            <label className={styles.label} htmlFor="invite-name">
              Your name
            </label>
            <input
              id="invite-name"
              data-testid="invite-name"
              type="text"
              maxLength={64}
              autoComplete="name"
              // biome-ignore lint/a11y/noAutofocus: the first field of a page whose only job is this form
              autoFocus
              value={displayName}
              onChange={(event) => setDisplayName(event.target.value)}
            />
            <p className={styles.hint}>Everyone you work with sees this name.</p>
          </>
        )}
        {/* Lets a password manager file the new password under the right account. */}
        <input type="hidden" autoComplete="username" value={preview.email} readOnly />
        <label className={styles.label} htmlFor="invite-password">
          Password
        </label>
        <input
          id="invite-password"
          data-testid="invite-password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <label className={styles.label} htmlFor="invite-repeated">
          The same password again
        </label>
        <input
          id="invite-repeated"
          data-testid="invite-repeated"
          type="password"
          autoComplete="new-password"
          value={repeated}
          onChange={(event) => setRepeated(event.target.value)}
        />
        <p className={styles.hint}>
          At least 10 characters. Not your e-mail address, not one character repeated, not a run like
          1234567890: those are guessed first.
        </p>
        {error && (
          <p className={styles.error} data-testid="invite-error" role="alert">
            {error}
          </p>
        )}
        <PendingButton pending={pending} type="submit" className="button primary" data-testid="invite-submit">
          {invited ? "Create my account" : "Set the password"}
        </PendingButton>
      </form>
    </main>
  );
}
