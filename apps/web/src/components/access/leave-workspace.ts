import { logOut } from "../../lib/auth/auth-requests";

/** Where the name of the workspace a guest left waits for the page that says so (this tab only). */
const LEFT_KEY = "coder:left-workspace";

/** The workspace this page shows, for the page that says the guest left it. */
let shownWorkspace: string | null = null;

export function rememberWorkspaceName(name: string): void {
  shownWorkspace = name;
}

/**
 * A guest leaves: their session ends (the service closes what it had open, and a revoked link's
 * session is gone anyway), and the tab lands on the page that says they left and how to come back.
 * The workspace's name travels in this tab's storage, never in the URL, so no link can make that
 * page say something else.
 */
export async function leaveWorkspace(): Promise<void> {
  await logOut().catch(() => undefined);
  try {
    sessionStorage.setItem(LEFT_KEY, shownWorkspace ?? "");
  } catch {
    // Storage refused: the page says "the workspace" instead of its name.
  }
  window.location.assign("/ended?left=1");
}

/** The name of the workspace this tab left, if it said. */
export function leftWorkspaceName(): string | null {
  try {
    return sessionStorage.getItem(LEFT_KEY) || null;
  } catch {
    return null;
  }
}
