"use client";

import { useState } from "react";
import { signInWithPassword } from "../../lib/auth/password-requests";
import { PendingButton } from "../controls/PendingButton";
import styles from "./login-form.module.css";
import { useSignInSubmit } from "./use-sign-in-submit";

/** Signing in with the e-mail address and password an invitation set (beside the admin token). */
export function PasswordLoginForm() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { submit, error, pending } = useSignInSubmit(() => signInWithPassword(email, password));

  return (
    <form className={styles.card} onSubmit={submit}>
      <h2 className={styles.title}>Sign in</h2>
      <label className={styles.label} htmlFor="password-email">
        E-mail address
      </label>
      <input
        id="password-email"
        data-testid="password-email"
        // Text with an e-mail keyboard: the page's input styles are for text and password fields.
        type="text"
        inputMode="email"
        autoCapitalize="off"
        autoComplete="username"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <label className={styles.label} htmlFor="password-password">
        Password
      </label>
      <input
        id="password-password"
        data-testid="password-password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      {error && (
        <p className={styles.error} data-testid="password-error" role="alert">
          {error}
        </p>
      )}
      <PendingButton pending={pending} type="submit" className="button primary" data-testid="password-submit">
        Sign in
      </PendingButton>
    </form>
  );
}
