import { type LanguageModelMiddleware, wrapLanguageModel } from "ai";
import { describeProviderError, MAX_ATTEMPTS, type ProviderFailure, retryDelay } from "../models/errors";

export type ProviderModel = Parameters<typeof wrapLanguageModel>[0]["model"];

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });

/**
 * The model with transient failures (rate limits, overload, dropped connections) tried again
 * after a growing pause, each retry reported. Only the request is retried: once the model has
 * started answering, a failure ends the step.
 */
export function retryingModel(
  model: ProviderModel,
  options: {
    baseMs: number;
    signal: AbortSignal;
    onRetry(attempt: number, delayMs: number, failure: ProviderFailure): void;
  },
): ProviderModel {
  const middleware: LanguageModelMiddleware = {
    specificationVersion: "v3",
    async wrapStream({ doStream }) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await doStream();
        } catch (error) {
          const failure = describeProviderError(error);
          if (options.signal.aborted || !failure.retryable || attempt >= MAX_ATTEMPTS) throw error;
          const delayMs = retryDelay(attempt, failure, options.baseMs);
          options.onRetry(attempt, delayMs, failure);
          await sleep(delayMs, options.signal);
          if (options.signal.aborted) throw error;
        }
      }
    },
  };
  return wrapLanguageModel({ model, middleware });
}
