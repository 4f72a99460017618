import { type TRPC_ERROR_CODE_KEY, TRPCError } from "@trpc/server";
import { ServiceError, type ServiceErrorKind } from "../errors/service-error";

/** The tRPC code each kind of service error is answered with (the page reads codes, e.g. to retry). */
export const trpcCodeOf: Record<ServiceErrorKind, TRPC_ERROR_CODE_KEY> = {
  not_found: "NOT_FOUND",
  forbidden: "FORBIDDEN",
  conflict: "CONFLICT",
  busy: "CONFLICT",
  precondition: "PRECONDITION_FAILED",
  bad_request: "BAD_REQUEST",
  unavailable: "SERVICE_UNAVAILABLE",
  too_large: "PAYLOAD_TOO_LARGE",
  too_many: "TOO_MANY_REQUESTS",
};

/** A service error as the tRPC error whose message a person can act on; `undefined` for any other error. */
export function mappedError(cause: unknown): TRPCError | undefined {
  if (!(cause instanceof ServiceError)) return undefined;
  return new TRPCError({ code: trpcCodeOf[cause.kind], message: cause.message, cause });
}
