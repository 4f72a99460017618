import { isUnauthorized } from "../errors/error-message";

/** A call refused for lack of a session means the cookie expired or was revoked: log in again. */
export function redirectIfLoggedOut(error: unknown): boolean {
  if (!isUnauthorized(error) || typeof window === "undefined") return false;
  window.location.assign("/login");
  return true;
}
