import { MutationObserver, QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { mutationCacheWithToasts, OWN_TOAST, SHOWN_INLINE } from "./mutation-errors";

/** A query client whose failed mutations land in `toasted`, as the page's do in its toasts. */
function page() {
  const toasted: string[] = [];
  const client = new QueryClient({
    mutationCache: mutationCacheWithToasts(
      () => false,
      (error) => toasted.push(error.message),
    ),
  });
  /** A control running a mutation that fails with `message`; `leave` takes the control off the page. */
  const control = (meta: typeof SHOWN_INLINE | typeof OWN_TOAST | undefined) => {
    const observer = new MutationObserver(client, {
      mutationFn: async (message: string) => {
        throw new Error(message);
      },
      ...(meta ? { meta } : {}),
    });
    const leave = observer.subscribe(() => undefined);
    return { run: (message: string) => observer.mutate(message).catch(() => undefined), leave };
  };
  return { toasted, control };
}

describe("where a failed action is said", () => {
  it("a failure its control shows inline is not toasted as well", async () => {
    const { toasted, control } = page();
    await control(SHOWN_INLINE).run("the branch is checked out elsewhere");
    expect(toasted).toEqual([]);
  });

  it("a failure whose control is gone by then, or that no control shows, is toasted once", async () => {
    const { toasted, control } = page();
    const closed = control(SHOWN_INLINE);
    const running = closed.run("the link could not be revoked");
    closed.leave();
    await running;
    await control(undefined).run("the workspace could not be started");
    expect(toasted).toEqual(["the link could not be revoked", "the workspace could not be started"]);
  });

  it("a failure whose code raises its own toast is not toasted a second time", async () => {
    const { toasted, control } = page();
    await control(OWN_TOAST).run("could not open port 3000");
    expect(toasted).toEqual([]);
  });
});
