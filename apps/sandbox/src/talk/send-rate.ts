import { TALK_RATE_MESSAGES, TALK_RATE_SECONDS } from "@coder/protocol";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { ServiceError } from "../errors/service-error";

/** A person sent more messages to a workspace's people than the rate allows. */
export class SendingTooFastError extends ServiceError {
  constructor(retryAfterMs: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(
      "too_many",
      `you are sending messages too fast: at most ${TALK_RATE_MESSAGES} every ${TALK_RATE_SECONDS} seconds; ` +
        `try again in ${seconds} s`,
    );
  }
}

/**
 * Each person's messages per workspace: at most TALK_RATE_MESSAGES in TALK_RATE_SECONDS (in this
 * instance's memory; the library forgets a key once its window is over).
 */
export class SendRate {
  private readonly limiter = new RateLimiterMemory({
    points: TALK_RATE_MESSAGES,
    duration: TALK_RATE_SECONDS,
  });

  /** Counts one message of `person` on `workspaceId`, or throws `SendingTooFastError`. */
  async take(workspaceId: string, person: string): Promise<void> {
    try {
      await this.limiter.consume(`${workspaceId}\n${person}`);
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) throw new SendingTooFastError(refusal.msBeforeNext);
      throw refusal;
    }
  }
}
