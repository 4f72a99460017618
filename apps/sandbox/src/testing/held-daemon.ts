import { containerLayout } from "@coder/protocol";
import { afterAll, beforeAll } from "vitest";
import { WAITING_FOR_DAEMON } from "../workspaces/workspace-service";
import { startTestService, type TestService } from "./harness";

/**
 * A workspace daemon whose start is held back deterministically, as on a busy machine: it starts
 * the real daemon once /tmp/go exists in the workspace, and exits with code 3 once /tmp/die does.
 */
const HELD_DAEMON = `while :; do
  if [ -e /tmp/go ]; then exec ${containerLayout.daemonNode} ${containerLayout.daemonScript} --root ${containerLayout.workspace}; fi
  if [ -e /tmp/die ]; then echo 'the daemon gave up' >&2; exit 3; fi
  sleep 0.05
done`;

/**
 * The real service with held daemons for the tests of one `describe` (started before them, closed
 * after): a create or start waits for its daemon (the first ping's deadline is 1 s, the start's
 * patience 120 s) until the test lets it go; no warm pool.
 */
export function useServiceWithHeldDaemons(): () => TestService {
  let service: TestService | undefined;
  beforeAll(async () => {
    const daemon = {
      command: ["sh", "-c", HELD_DAEMON],
      timeouts: { pingMs: 1000, startMs: 120_000, requestMs: 5000 },
    };
    service = await startTestService({ daemon }, { CODER_WARM_POOL: "0" });
  });
  afterAll(async () => {
    await service?.close();
  });
  return () => {
    if (!service) throw new Error("the service starts in beforeAll: use it inside a test");
    return service;
  };
}

/** Whether a workspace's detail says it waits for its daemon's first answer ("…: 12 s"). */
export function waitsForDaemon(detail: string | undefined): boolean {
  return detail?.startsWith(`${WAITING_FOR_DAEMON}: `) === true;
}
