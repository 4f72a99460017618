/**
 * The service's cookie login. The token goes out once; from then on the HttpOnly session cookie
 * travels by itself and the page never sees it.
 */

export type LoginOutcome = { ok: true } | { ok: false; error: string };

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export async function logIn(token: string, fetchImpl: Fetch = fetch): Promise<LoginOutcome> {
  if (token.trim() === "") return { ok: false, error: "Paste the login token." };
  let response: Response;
  try {
    response = await fetchImpl("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: token.trim() }),
    });
  } catch {
    return { ok: false, error: "The service cannot be reached. Is it running?" };
  }
  if (response.ok) return { ok: true };
  return { ok: false, error: await serviceError(response) };
}

export type JoinOutcome = { ok: true; workspaceId: string | null } | { ok: false; error: string };

/** Joins through a share link under `name`; on success, the workspace the link opens. */
export async function joinShare(
  secret: string,
  name: string,
  fetchImpl: Fetch = fetch,
): Promise<JoinOutcome> {
  if (name.trim() === "") return { ok: false, error: "Enter your name." };
  let response: Response;
  try {
    response = await fetchImpl("/auth/share", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ secret, name: name.trim() }),
    });
  } catch {
    return { ok: false, error: "The service cannot be reached. Is it running?" };
  }
  if (!response.ok) return { ok: false, error: await serviceError(response) };
  // A guest sees exactly one workspace: the link's.
  const list = await fetchImpl("/api/trpc/workspace.list").then(
    (r) => r.json(),
    () => null,
  );
  const id: unknown = list?.result?.data?.[0]?.id;
  return { ok: true, workspaceId: typeof id === "string" ? id : null };
}

export type SharePreview =
  | { ok: true; workspace: string; role: "viewer" | "editor" }
  | { ok: false; error: string };

/** What a share link opens (the workspace's name and the role), or why it cannot be used. */
export async function previewShare(secret: string, fetchImpl: Fetch = fetch): Promise<SharePreview> {
  let response: Response;
  try {
    response = await fetchImpl("/auth/share/preview", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ secret }),
    });
  } catch {
    return { ok: false, error: "The service cannot be reached. Is it running?" };
  }
  if (!response.ok) return { ok: false, error: await serviceError(response) };
  const body = (await response.json()) as { workspace: string; role: "viewer" | "editor" };
  return { ok: true, workspace: body.workspace, role: body.role };
}

export async function logOut(fetchImpl: Fetch = fetch): Promise<void> {
  await fetchImpl("/auth/logout", { method: "POST" });
}

/** The `{error}` the service sends, or a sentence that fits the status when the body has none. */
export async function serviceError(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (typeof body === "object" && body !== null && "error" in body && typeof body.error === "string") {
      return body.error;
    }
  } catch {
    // Not JSON: fall through to the status.
  }
  if (response.status === 401) return "That token is not valid.";
  if (response.status === 429) return "Too many attempts. Wait a moment and try again.";
  return `Login failed (HTTP ${response.status}).`;
}
