"use client";

import { type ReactNode, useState } from "react";
import { logIn } from "../../lib/auth/auth-requests";
import { PendingButton } from "../controls/PendingButton";
import styles from "./login-form.module.css";
import { useSignInSubmit } from "./use-sign-in-submit";

/** The admin token's form; `children` are the other ways of signing in, shown above it. */
export function LoginForm({ linkExpired, children }: { linkExpired: boolean; children?: ReactNode }) {
  const [token, setToken] = useState("");
  const { submit, error, pending } = useSignInSubmit(
    () => logIn(token),
    linkExpired ? "That login link has expired or was already used. Log in with the token." : null,
  );

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
