/**
 * Why a sign-in with OIDC was refused. The login page turns the reason into a sentence for the
 * person; the detail (never a token) goes to the service log only.
 */
export type OidcRefusalReason =
  /** The flow cookie, its state or its lifetime did not match: start again. */
  | "expired"
  /** The provider refused, or its answer did not verify (code, PKCE, nonce, id token). */
  | "provider"
  | "unavailable"
  | "unverified"
  | "domain"
  | "suspended"
  /** The address's account is linked to another account at this provider. */
  | "linked";

export class OidcRefusal extends Error {
  constructor(
    readonly reason: OidcRefusalReason,
    readonly detail: string,
  ) {
    super(`sign-in with OIDC refused (${reason}): ${detail}`);
  }
}
