import { type Mutation, MutationCache } from "@tanstack/react-query";

/**
 * Where a mutation's failure is said, once: inline beside the control that ran it, and in a toast
 * only when no control shows it (none does, or the control is gone: a closed dialog, a row that
 * left). A mutation declares which it is in its `meta`; one without says nothing itself, so the
 * toast speaks for it.
 */
declare module "@tanstack/react-query" {
  interface Register {
    mutationMeta: {
      /** `inline`: the control shows the error while it is on the page; `own toast`: the code raises one with more to say. */
      errorShown?: "inline" | "own toast";
    };
  }
}

/** The `meta` of a mutation whose control shows its error. */
export const SHOWN_INLINE = { errorShown: "inline" } as const;
/** The `meta` of a mutation whose code raises its own toast for a failure. */
export const OWN_TOAST = { errorShown: "own toast" } as const;

/**
 * The cache that raises `toast` for each failed mutation that no control on the page shows.
 * `handled` says whether some other handler took the error (a logged-out caller sent to the login).
 */
export function mutationCacheWithToasts(
  handled: (error: Error) => boolean,
  toast: (error: Error) => void,
): MutationCache {
  // The controls on the page that follow each mutation (its observers, public only through the cache's events).
  const controls = new WeakMap<Mutation<unknown, unknown, unknown, unknown>, number>();
  const cache = new MutationCache({
    onError: (error, _variables, _context, mutation) => {
      if (handled(error)) return;
      const shown = mutation.meta?.errorShown;
      if (shown === "own toast" || (shown === "inline" && (controls.get(mutation) ?? 0) > 0)) return;
      toast(error);
    },
  });
  cache.subscribe((event) => {
    if (event.type === "observerAdded") controls.set(event.mutation, (controls.get(event.mutation) ?? 0) + 1);
    if (event.type === "observerRemoved")
      controls.set(event.mutation, (controls.get(event.mutation) ?? 1) - 1);
  });
  return cache;
}
