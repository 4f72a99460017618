"use client";

import { type FormEvent, type ReactNode, useState } from "react";
import { logIn } from "../../lib/auth/auth-requests";
import { PendingButton } from "../controls/PendingButton";
import styles from "./login-form.module.css";

/** The admin token's form; `children` are the other ways of signing in, shown above it. */
export function LoginForm({ linkExpired, children }: { linkExpired: boolean; children?: ReactNode }) {
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(
    linkExpired ? "That login link has expired or was already used. Log in with the token." : null,
  );
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const outcome = await logIn(token);
    if (outcome.ok) {
      // A full load, so every page request from here on carries the new cookie.
      window.location.assign("/");
      return;
    }
    setError(outcome.error);
    setPending(false);
  }

  return (
    <main className={styles.page}>
      {children}
      <form className={styles.card} onSubmit={submit}>
        <h1 className={styles.title}>coder</h1>
        <label className={styles.label} htmlFor="login-token">
          Login token
        </label>
        <input
          id="login-token"
          data-testid="login-token"
          type="password"
          autoComplete="current-password"
          // biome-ignore lint/a11y/noAutofocus: the only field of a page whose only job is this field
          autoFocus
          value={token}
          onChange={(event) => setToken(event.target.value)}
        />
        <p className={styles.hint}>The service printed this token once, when it first started.</p>
        {error && (
          <p className={styles.error} data-testid="login-error" role="alert">
            {error}
          </p>
        )}
        <PendingButton pending={pending} type="submit" className="button primary" data-testid="login-submit">
          Log in
        </PendingButton>
      </form>
    </main>
  );
}
