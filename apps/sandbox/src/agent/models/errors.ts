import type { ErrorKind } from "@coder/protocol";
import { APICallError, LoadAPIKeyError, RetryError } from "ai";

export interface ProviderFailure {
  kind: ErrorKind;
  /** One plain sentence for the person (and the turn's error part). */
  message: string;
  /** Worth trying again after a pause: rate limits, overload, dropped connections. */
  retryable: boolean;
  /** What the provider asked us to wait, when it said so. */
  retryAfterMs?: number;
}

const CONTEXT_TOO_LONG =
  /context.{0,20}(length|window|limit)|maximum context|too many tokens|prompt is too long|token limit|exceeds the (model's )?max/i;

function retryAfter(headers: Record<string, string> | undefined): number | undefined {
  const ms = Number(headers?.["retry-after-ms"]);
  if (Number.isFinite(ms) && ms > 0) return ms;
  const seconds = Number(headers?.["retry-after"]);
  if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  return undefined;
}

function excerpt(body: string | undefined): string {
  if (!body) return "";
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof json.error === "string" ? json.error : (json.error?.message ?? json.message);
    if (typeof message === "string") return `: ${message.slice(0, 300)}`;
  } catch {
    // not JSON: quote the start of the text
  }
  return `: ${body.trim().slice(0, 300)}`;
}

function fromApiCall(error: APICallError): ProviderFailure {
  const status = error.statusCode;
  const detail = excerpt(error.responseBody) || (status ? "" : `: ${error.message}`);
  const host = URL.canParse(error.url) ? new URL(error.url).host : error.url;
  if (status === undefined) {
    return {
      kind: "network",
      message: `cannot reach the model provider at ${host}${detail}`,
      retryable: true,
    };
  }
  if (status === 401 || status === 403) {
    return {
      kind: "auth",
      message: `the model provider refused the credentials (HTTP ${status}); check the API key${detail}`,
      retryable: false,
    };
  }
  if (status === 429) {
    const wait = retryAfter(error.responseHeaders);
    return {
      kind: "rate_limit",
      message: `the model provider is rate limiting requests (HTTP 429)${detail}`,
      retryable: true,
      ...(wait ? { retryAfterMs: wait } : {}),
    };
  }
  if (CONTEXT_TOO_LONG.test(`${error.responseBody ?? ""} ${error.message}`)) {
    return {
      kind: "context_length",
      message:
        "the conversation is too long for this model's context window; start a new session or use a model with a larger one",
      retryable: false,
    };
  }
  if (status === 404) {
    return {
      kind: "config",
      message: `the model provider does not know this model (HTTP 404)${detail}`,
      retryable: false,
    };
  }
  const retryable = status === 408 || status === 409 || status >= 500;
  return {
    kind: "provider",
    message: `the model provider failed (HTTP ${status})${detail}`,
    retryable,
    ...(retryable && retryAfter(error.responseHeaders)
      ? { retryAfterMs: retryAfter(error.responseHeaders) }
      : {}),
  };
}

/** Turns whatever a provider call threw into a plain message and whether to try again. */
export function describeProviderError(error: unknown): ProviderFailure {
  if (RetryError.isInstance(error)) return describeProviderError(error.lastError);
  if (APICallError.isInstance(error)) return fromApiCall(error);
  if (LoadAPIKeyError.isInstance(error)) {
    return {
      kind: "auth",
      message: `the model provider's API key is missing: ${error.message}`,
      retryable: false,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof TypeError && /fetch failed|network|socket/i.test(message)) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return {
      kind: "network",
      message: `cannot reach the model provider${cause ? ` (${cause})` : ""}`,
      retryable: true,
    };
  }
  return { kind: "provider", message: `the model call failed: ${message}`, retryable: false };
}

/** How long to wait before attempt `attempt` (1-based) of a failed model call. */
export function retryDelay(attempt: number, failure: ProviderFailure, baseMs: number): number {
  return failure.retryAfterMs ?? Math.min(baseMs * 2 ** (attempt - 1), 30_000);
}

/** Attempts of one model call before the turn gives up. */
export const MAX_ATTEMPTS = 4;
