import { NamedError } from "./named-error";

/**
 * The one error vocabulary of the service. A domain error says what kind of refusal or failure it
 * is; each edge answers a kind through its own table (trpc/trpc-error-codes.ts, http/http-errors.ts,
 * agent/tools/tool-error-codes.ts), so no edge knows the domain classes. An error that is no
 * ServiceError is unexpected: the edges answer it with a plain sentence and log it.
 */
export const serviceErrorKinds = [
  /** What was asked for does not exist (or no longer does). */
  "not_found",
  /** The caller may not do this. */
  "forbidden",
  /** Someone else's change came first (a file changed meanwhile, a request already answered). */
  "conflict",
  /** Something is under way that this must wait for (a running turn, a workspace starting). */
  "busy",
  /** The state does not allow this now, and waiting alone will not change it (start it first). */
  "precondition",
  /** The request itself is wrong, whenever it is sent. */
  "bad_request",
  /** What should serve this (a workspace's daemon, its disk) cannot right now. */
  "unavailable",
  /** Larger than allowed. */
  "too_large",
  /** More at once, or more often, than allowed. */
  "too_many",
] as const;

export type ServiceErrorKind = (typeof serviceErrorKinds)[number];

/** A refusal or failure a person can act on: the message is for them, the kind tells each edge how to answer. */
export class ServiceError extends NamedError {
  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
  ) {
    super(message);
  }
}
