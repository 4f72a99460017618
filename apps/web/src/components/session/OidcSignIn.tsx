"use client";

import { useEffect, useState } from "react";
import styles from "./oidc-sign-in.module.css";

/** What `GET /auth/methods` says of OIDC: null when it is not configured. */
type OidcMethod = { name: string; available: boolean } | null;

/** The service's reasons (`/login?oidc=<reason>`), as sentences that say what to do. */
const REFUSALS: Record<string, string> = {
  expired: "That sign-in was not started in this browser, was already used or took too long. Sign in again.",
  provider: "The sign-in provider did not confirm who you are. Sign in again.",
  unavailable: "Signing in with the provider is unavailable right now. Try again in a minute.",
  unverified: "Your provider has not verified your e-mail address. Verify it there, then sign in again.",
  domain: "Your e-mail address is not of a domain allowed here. Ask an administrator to invite you.",
  suspended: "Your account is suspended. Ask an administrator to restore it.",
  linked:
    "An account with your e-mail address is already linked to another account at this provider. Ask an administrator.",
};

/** "Sign in with <provider>" on the login page, shown only when the service has OIDC configured. */
export function OidcSignIn() {
  const [oidc, setOidc] = useState<OidcMethod>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    const reason = new URLSearchParams(window.location.search).get("oidc");
    // Only known reasons: the page never shows text taken from its address.
    if (reason) setRefusal(REFUSALS[reason] ?? REFUSALS.provider ?? null);
    fetch("/auth/methods")
      .then((res) => (res.ok ? (res.json() as Promise<{ oidc?: OidcMethod }>) : null))
      .then(
        (methods) => setOidc(methods?.oidc ?? null),
        () => setOidc(null),
      );
  }, []);

  if (!oidc) return null;
  return (
    <div className={styles.way}>
      <p className={styles.or}>or</p>
      {refusal && (
        <p className={styles.error} data-testid="oidc-refused" role="alert">
          {refusal}
        </p>
      )}
      {oidc.available ? (
        // A full navigation: the provider's pages take over, then send the browser back.
        <a className="button" href="/auth/oidc/start" data-testid="oidc-sign-in">
          Sign in with {oidc.name}
        </a>
      ) : (
        <p className={styles.hint} data-testid="oidc-unavailable">
          Signing in with {oidc.name} is unavailable: the service cannot reach it yet. Try again in a minute.
        </p>
      )}
    </div>
  );
}
