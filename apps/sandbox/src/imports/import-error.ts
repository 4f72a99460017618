import { ServiceError, type ServiceErrorKind } from "../errors/service-error";

/** An import (clone, unpack) that failed for a reason a person can act on; the message says it. */
export class ImportError extends ServiceError {
  /** `unavailable` by default: the import ran and could not be done (clone failed, timed out, cancelled). */
  constructor(message: string, kind: ServiceErrorKind = "unavailable") {
    super(kind, message);
  }
}
