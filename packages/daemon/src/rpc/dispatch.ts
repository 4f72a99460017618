import { type CancellationToken, ErrorCodes, ResponseError } from "vscode-jsonrpc/node";
import type { z } from "zod";
import { daemonError, toResponseError } from "./errors";

/** One JSON-RPC method: how to validate its params and what to do with them. */
export interface RpcMethod<S extends z.ZodType = z.ZodType, R = unknown> {
  params: S;
  /** `signal` aborts when the client cancels the request or the daemon shuts down. */
  run(params: z.output<S>, signal: AbortSignal): Promise<R>;
}

export function defineMethod<S extends z.ZodType, R>(method: RpcMethod<S, R>): RpcMethod<S, R> {
  return method;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/**
 * Routes requests to their methods. Every failure (bad params, unknown method, a throwing
 * handler) becomes a JSON-RPC error reply, so nothing a client sends can end the process.
 */
export class Dispatcher {
  private readonly running = new Set<AbortController>();

  constructor(
    private readonly methods: Readonly<Record<string, RpcMethod>>,
    private readonly log: (message: string) => void,
  ) {}

  async handle(method: string, rawParams: unknown, token: CancellationToken): Promise<unknown> {
    const target = Object.hasOwn(this.methods, method) ? this.methods[method] : undefined;
    if (!target) throw daemonError(ErrorCodes.MethodNotFound, `the daemon has no method ${method}`);
    const parsed = target.params.safeParse(rawParams ?? {});
    if (!parsed.success) {
      throw daemonError(ErrorCodes.InvalidParams, `${method}: ${describeIssues(parsed.error)}`);
    }
    const controller = new AbortController();
    this.running.add(controller);
    const cancel = token.onCancellationRequested(() => controller.abort());
    if (token.isCancellationRequested) controller.abort();
    try {
      return await target.run(parsed.data, controller.signal);
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
