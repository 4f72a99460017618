import { serviceError } from "./auth-requests";

/**
 * Signing in with an e-mail address and a password, and the invitation page's requests. The
 * password goes out once per request; from then on the HttpOnly session cookie travels by itself.
 */

export type Outcome = { ok: true } | { ok: false; error: string };

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

const UNREACHABLE = "The service cannot be reached. Is it running?";

async function postJson(path: string, body: unknown, fetchImpl: Fetch): Promise<Response | null> {
  try {
    return await fetchImpl(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    return null;
  }
}

export async function signInWithPassword(
  email: string,
  password: string,
  fetchImpl: Fetch = fetch,
): Promise<Outcome> {
  if (email.trim() === "") return { ok: false, error: "Enter your e-mail address." };
  if (password === "") return { ok: false, error: "Enter your password." };
  const response = await postJson("/auth/password", { email: email.trim(), password }, fetchImpl);
  if (!response) return { ok: false, error: UNREACHABLE };
  return response.ok ? { ok: true } : { ok: false, error: await serviceError(response) };
}

export type InvitePreview =
  | { ok: true; email: string; kind: "invite" | "reset" }
  | { ok: false; error: string };

/** Whom an invitation or reset link is for, or why it cannot be used. */
export async function previewInvite(secret: string, fetchImpl: Fetch = fetch): Promise<InvitePreview> {
  const response = await postJson("/auth/invite/preview", { secret }, fetchImpl);
  if (!response) return { ok: false, error: UNREACHABLE };
  if (!response.ok) return { ok: false, error: await serviceError(response) };
  const body = (await response.json()) as { email: string; kind: "invite" | "reset" };
  return { ok: true, email: body.email, kind: body.kind };
}

/** Uses the link: sets the password (and, for an invitation, the display name) and signs in. */
export async function acceptInvite(
  secret: string,
  input: { displayName?: string; password: string; repeated: string },
  fetchImpl: Fetch = fetch,
): Promise<Outcome> {
  if (input.displayName !== undefined && input.displayName.trim() === "") {
    return { ok: false, error: "Enter your name." };
  }
  if (input.password !== input.repeated)
    return { ok: false, error: "The two passwords differ; type the same one twice." };
  const response = await postJson(
    "/auth/invite",
    { secret, displayName: input.displayName?.trim(), password: input.password },
    fetchImpl,
  );
  if (!response) return { ok: false, error: UNREACHABLE };
  return response.ok ? { ok: true } : { ok: false, error: await serviceError(response) };
}
