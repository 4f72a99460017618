"use client";

import { logOut } from "../../lib/auth/auth-requests";

/** Ends the owner's session; the service closes what it had open. (A guest leaves: LeaveButton.) */
export function LogoutButton() {
  async function leave() {
    // Go to the login page even if the request failed: a stale cookie is refused there anyway.
    await logOut().catch(() => undefined);
    window.location.assign("/login");
  }
  return (
    <button type="button" className="button" onClick={leave}>
      Log out
    </button>
  );
}
