/**
 * An Error named after its class, so logs and stacks say which error it is: the base of the
 * service's own errors, which then need no constructor just to set their name.
 */
export class NamedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
