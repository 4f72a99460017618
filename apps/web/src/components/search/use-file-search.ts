"use client";

import type { TextQuery } from "@coder/protocol";
import { useEffect, useState } from "react";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPCClient } from "../../lib/trpc/client";
import { addSearchEvent, noResults, type SearchResults, searching } from "./search-results";

/**
 * Runs find in files for `query` (none: no search) and follows its results as they stream in. A
 * new query, or `rerun` changing, cancels the running search and starts again.
 */
export function useFileSearch(workspaceId: string, query: TextQuery | null, rerun: number) {
  const client = useTRPCClient();
  const [results, setResults] = useState<SearchResults>(noResults);
  const key = query ? JSON.stringify(query) : null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `rerun` only asks for the same search again
  useEffect(() => {
    if (key === null) {
      setResults(noResults);
      return;
    }
    setResults(searching);
    const subscription = client.files.search.subscribe(
      { workspaceId, query: JSON.parse(key) as TextQuery },
      {
        // A dropped connection that comes back runs the search again from the start.
        onStarted: () => setResults(searching),
        onData: (event) => {
          setResults((current) => addSearchEvent(current, event));
          if (event.type === "done") subscription.unsubscribe();
        },
        onError: (error) => {
          if (redirectIfLoggedOut(error)) return;
          setResults((current) => ({ ...current, status: "failed", error: errorMessage(error) }));
        },
      },
    );
    return () => subscription.unsubscribe();
  }, [client, workspaceId, key, rerun]);

  return { results, setResults };
}
