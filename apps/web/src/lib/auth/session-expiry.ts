import { isUnauthorized } from "../errors/error-message";
import { accessCodeOf, reportAccessEnded } from "./access-ended";

/**
 * A call refused for lack of a session: when a guest's link was revoked or expired the page says
 * so where it is; otherwise the cookie expired or was revoked, so log in again. Returns whether the
 * error was such a refusal.
 */
export function redirectIfLoggedOut(error: unknown): boolean {
  if (!isUnauthorized(error) || typeof window === "undefined") return false;
  const code = accessCodeOf(error);
  if (code !== null && reportAccessEnded(code)) return true;
  window.location.assign("/login");
  return true;
}
