"use client";

import { useState } from "react";
import { acceptInvite, type InvitePreview, previewInvite } from "../../lib/auth/password-requests";
import { PendingButton } from "../controls/PendingButton";
import { LinkPage } from "./LinkPage";
import styles from "./login-form.module.css";
import { useSignInSubmit } from "./use-sign-in-submit";

export function InviteForm({ secret }: { secret: string }) {
  return (
    <LinkPage load={() => previewInvite(secret)} refusedTitle="Invitation" errorTestId="invite-error">
      {(preview) => <NewPasswordForm secret={secret} preview={preview} />}
    </LinkPage>
  );
}

/** Sets the password of an invited account (with its display name) or of a reset one. */
function NewPasswordForm({
  secret,
  preview,
}: {
  secret: string;
  preview: Extract<InvitePreview, { ok: true }>;
}) {
  const [displayName, setDisplayName] = useState("");
  const [password, setPassword] = useState("");
  const [repeated, setRepeated] = useState("");

  const invited = preview.kind === "invite";
  const { submit, error, pending } = useSignInSubmit(() =>
    acceptInvite(secret, { displayName: invited ? displayName : undefined, password, repeated }),
  );

  return (
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
  );
}
