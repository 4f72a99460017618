/** The server's program is not on PATH (or not executable): the tools answer `not_installed`. */
export class LspNotInstalledError extends Error {
  constructor(readonly program: string) {
    super(`${program} is not installed`);
    this.name = "LspNotInstalledError";
  }
}

/** The server could not start, or exited while it was being asked something. */
export class LspServerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LspServerError";
  }
}

/** The server did not answer in time. */
export class LspTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LspTimeoutError";
  }
}
