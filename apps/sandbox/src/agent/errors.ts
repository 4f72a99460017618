/** A session request that cannot be served as asked; the message says why, for a person. */
export class AgentError extends Error {
  constructor(
    readonly kind: "not_found" | "busy" | "conflict" | "precondition" | "bad_request",
    message: string,
  ) {
    super(message);
    this.name = "AgentError";
  }
}
