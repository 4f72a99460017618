import { ServiceError } from "../errors/service-error";

/** A workspace request that cannot be served as asked; the message says why, for a person. */
export class WorkspaceError extends ServiceError {}
