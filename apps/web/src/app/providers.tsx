"use client";

import { QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { AccessEndedNotice } from "../components/access/AccessEndedNotice";
import { ToastProvider } from "../components/toast/Toasts";
import { ToastStore } from "../components/toast/toast-store";
import { redirectIfLoggedOut } from "../lib/auth/session-expiry";
import { errorCode, errorMessage } from "../lib/errors/error-message";
import { mutationCacheWithToasts } from "../lib/errors/mutation-errors";
import { createApiClient, TRPCProvider } from "../lib/trpc/client";

/** Errors that will not go away by asking again. */
const FINAL_CODES = new Set(["BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT"]);

function createQueryClient(toasts: ToastStore): QueryClient {
  return new QueryClient({
    // Query errors are shown where the data would be; a mutation's where its control is, or else
    // in a toast (mutation-errors.ts).
    queryCache: new QueryCache({ onError: redirectIfLoggedOut }),
    mutationCache: mutationCacheWithToasts(redirectIfLoggedOut, (error) => toasts.error(errorMessage(error))),
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < 2 && !FINAL_CODES.has(errorCode(error) ?? ""),
        staleTime: 5_000,
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [toasts] = useState(() => new ToastStore());
  const [queryClient] = useState(() => createQueryClient(toasts));
  const [trpcClient] = useState(createApiClient);
  return (
    <ToastProvider store={toasts}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {children}
          <AccessEndedNotice />
        </TRPCProvider>
      </QueryClientProvider>
    </ToastProvider>
  );
}
