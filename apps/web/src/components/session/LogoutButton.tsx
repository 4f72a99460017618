"use client";

import { logOut } from "../../lib/auth/auth-requests";

/** Ends this browser's session ("Leave" for a guest); the service closes what it had open. */
export function LogoutButton({ label = "Log out" }: { label?: string }) {
  async function leave() {
    // Go to the login page even if the request failed: a stale cookie is refused there anyway.
    await logOut().catch(() => undefined);
    window.location.assign("/login");
  }
  return (
    <button type="button" className="button" onClick={leave}>
      {label}
    </button>
  );
}
