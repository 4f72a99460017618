import { NamedError } from "../errors/named-error";
import { ServiceError, type ServiceErrorKind } from "../errors/service-error";

/** A refusal the edge itself decides (no session, wrong role, a malformed body), with its status. */
export class HttpRefusal extends NamedError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The HTTP status each kind of service error is answered with. */
export const httpStatusOf: Record<ServiceErrorKind, number> = {
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  busy: 409,
  precondition: 412,
  bad_request: 400,
  unavailable: 503,
  too_large: 413,
  too_many: 429,
};

/**
 * The one place an error becomes an HTTP status: the edge's own refusals, then every service
 * error by its kind. `undefined` for an unexpected error: the caller logs it and answers 500.
 */
export function httpRefusalOf(err: unknown): { status: number; message: string } | undefined {
  if (err instanceof HttpRefusal) return { status: err.status, message: err.message };
  if (err instanceof ServiceError) return { status: httpStatusOf[err.kind], message: err.message };
  return undefined;
}
