import { APICallError, RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { describeProviderError, retryDelay } from "./errors";

const apiError = (statusCode: number | undefined, body?: string, headers?: Record<string, string>) =>
  new APICallError({
    message: "failed",
    url: "https://api.example.com/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    responseBody: body,
    responseHeaders: headers,
    isRetryable: statusCode === undefined || statusCode >= 500 || statusCode === 429,
  });

describe("provider errors", () => {
  it("become plain messages by kind", () => {
    expect(describeProviderError(apiError(401, '{"error":{"message":"invalid x-api-key"}}'))).toEqual({
      kind: "auth",
      message: "the model provider refused the credentials (HTTP 401); check the API key: invalid x-api-key",
      retryable: false,
    });
    expect(describeProviderError(apiError(429, '{"error":"slow down"}', { "retry-after": "3" }))).toEqual({
      kind: "rate_limit",
      message: "the model provider is rate limiting requests (HTTP 429): slow down",
      retryable: true,
      retryAfterMs: 3000,
    });
    expect(describeProviderError(apiError(undefined))).toMatchObject({ kind: "network", retryable: true });
    expect(
      describeProviderError(apiError(400, "prompt is too long: 250000 tokens > 200000 maximum")),
    ).toMatchObject({
      kind: "context_length",
      retryable: false,
    });
    expect(describeProviderError(apiError(404, "model not found"))).toMatchObject({ kind: "config" });
    expect(describeProviderError(apiError(529, "overloaded"))).toMatchObject({
      kind: "provider",
      retryable: true,
    });
    expect(describeProviderError(apiError(400, "bad"))).toMatchObject({ kind: "provider", retryable: false });
  });

  it("look through the SDK's retry wrapper and at dropped connections", () => {
    const wrapped = new RetryError({
      message: "gave up",
      reason: "maxRetriesExceeded",
      errors: [apiError(503)],
    });
    expect(describeProviderError(wrapped)).toMatchObject({ kind: "provider", retryable: true });
    const dropped = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    expect(describeProviderError(dropped)).toEqual({
      kind: "network",
      message: "cannot reach the model provider (ECONNREFUSED)",
      retryable: true,
    });
    expect(describeProviderError(new Error("odd"))).toMatchObject({
      kind: "provider",
      message: "the model call failed: odd",
    });
  });

  it("are retried after a doubling pause, or what the provider asked for", () => {
    const failure = { kind: "provider" as const, message: "", retryable: true };
    expect([1, 2, 3].map((n) => retryDelay(n, failure, 1000))).toEqual([1000, 2000, 4000]);
    expect(retryDelay(10, failure, 1000)).toBe(30_000);
    expect(retryDelay(1, { ...failure, retryAfterMs: 7000 }, 1000)).toBe(7000);
  });
});
