/**
 * At most this many calls in one batched tRPC request: the service refuses a larger batch with 400
 * before any call runs, so the clients' batch links split at the same number.
 */
export const MAX_CALLS_PER_BATCH = 16;

/**
 * The one WebSocket a page holds to the service, which carries every tRPC subscription of the page
 * (queries and mutations stay on HTTP).
 */
export const SUBSCRIPTION_SOCKET_PATH = "/api/trpc-socket";
