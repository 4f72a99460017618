"use client";

import { logOut } from "../../lib/auth/auth-requests";

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
