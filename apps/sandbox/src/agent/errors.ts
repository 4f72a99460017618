import { ServiceError } from "../errors/service-error";
/** A session request that cannot be served as asked; the message says why, for a person. */
export class AgentError extends ServiceError {}
