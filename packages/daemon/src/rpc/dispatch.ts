import type { DaemonMethod, daemonMethods } from "@coder/protocol";
import { type CancellationToken, ErrorCodes, ResponseError } from "vscode-jsonrpc/node";
import type { z } from "zod";
import { daemonError, toResponseError } from "./errors";

/** What a method's params must be: one row of a contract such as the protocol's daemonMethods. */
export type ParamsContract = Readonly<Record<string, { params: z.ZodType }>>;

/** Runs one method with its validated params; `signal` aborts when the client cancels the request or the daemon shuts down. */
export type Handler<P extends z.ZodType = z.ZodType, R = unknown> = (
  params: z.output<P>,
  signal: AbortSignal,
) => Promise<R>;

/** The daemon's handler of method M of the contract (packages/protocol/src/daemon.ts). */
export type DaemonHandler<M extends DaemonMethod> = Handler<
  (typeof daemonMethods)[M]["params"],
  z.input<(typeof daemonMethods)[M]["result"]>
>;

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/**
 * Routes requests to their handlers, every one validated against the contract first, in this one
 * place. Every failure (bad params, unknown method, a throwing handler) becomes a JSON-RPC error
 * reply, so nothing a client sends can end the process.
 */
export class Dispatcher<C extends ParamsContract> {
  private readonly running = new Set<AbortController>();

  constructor(
    private readonly contract: C,
    private readonly handlers: { [M in keyof C]: Handler<C[M]["params"], unknown> },
    private readonly log: (message: string) => void,
  ) {}

  async handle(method: string, rawParams: unknown, token: CancellationToken): Promise<unknown> {
    const known = Object.hasOwn(this.contract, method) && Object.hasOwn(this.handlers, method);
    if (!known) throw daemonError(ErrorCodes.MethodNotFound, `the daemon has no method ${method}`);
    const run: Handler = this.handlers[method as keyof C];
    const parsed = (this.contract[method] as C[keyof C]).params.safeParse(rawParams ?? {});
    if (!parsed.success) {
      throw daemonError(ErrorCodes.InvalidParams, `${method}: ${describeIssues(parsed.error)}`);
    }
    const controller = new AbortController();
    this.running.add(controller);
    const cancel = token.onCancellationRequested(() => controller.abort());
    if (token.isCancellationRequested) controller.abort();
    try {
      return await run(parsed.data, controller.signal);
    } catch (error) {
      // Handlers turn the failures they expect into ResponseErrors; anything else is a bug to see.
      if (!(error instanceof ResponseError)) {
        this.log(`${method} failed: ${error instanceof Error ? error.stack : String(error)}`);
      }
      throw toResponseError(error);
    } finally {
      cancel.dispose();
      this.running.delete(controller);
    }
  }

  /** Aborts every request still running (the client went away). */
  abortAll(): void {
    for (const controller of this.running) controller.abort();
  }
}
