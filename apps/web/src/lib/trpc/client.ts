import { MAX_CALLS_PER_BATCH } from "@coder/protocol";
import { createTRPCClient, httpBatchLink, splitLink, type TRPCClient, wsLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "./app-router";
import { createSubscriptionSocket } from "./subscription-socket";

/** The service serves the API on the page's own origin, so the session cookie goes along. */
const API_PATH = "/api/trpc";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * Subscriptions share the page's one WebSocket (subscription-socket.ts); queries and mutations stay
 * batched HTTP calls, each checked against the cookie as it is then and answered with its status.
 */
export function createApiClient(): TRPCClient<AppRouter> {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: wsLink({ client: createSubscriptionSocket() }),
        // Batched queries travel in the URL; many open folders must not outgrow it, nor the
        // service's batch limit.
        false: httpBatchLink({ url: API_PATH, maxURLLength: 4000, maxItems: MAX_CALLS_PER_BATCH }),
      }),
    ],
  });
}
