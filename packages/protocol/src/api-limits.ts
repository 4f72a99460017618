/**
 * At most this many calls in one batched tRPC request: the service refuses a larger batch with 400
 * before any call runs, so the clients' batch links split at the same number.
 */
export const MAX_CALLS_PER_BATCH = 16;
