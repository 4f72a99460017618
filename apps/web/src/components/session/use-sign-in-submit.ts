"use client";

import { type FormEvent, useState } from "react";

/** What a sign-in request answers: where to go next, or a sentence for the person. */
export type SignInOutcome = { ok: true; next?: string } | { ok: false; error: string };

/**
 * The submit of every form that ends in a new cookie (token, password, invitation, share link):
 * pending while it runs, the refusal shown under the form, and on success a full page load, so
 * every request from there on carries the new cookie.
 */
export function useSignInSubmit(send: () => Promise<SignInOutcome>, initialError: string | null = null) {
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const outcome = await send();
    if (outcome.ok) {
      window.location.assign(outcome.next ?? "/");
      return;
    }
    setError(outcome.error);
    setPending(false);
  }

  return { submit, error, pending };
}
