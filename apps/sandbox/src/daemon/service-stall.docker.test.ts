// Issue 23: under 250 people the service's event loop fell far behind, and 7 of 10 workspace
// daemons were restarted although they were fine: their answers sat unread behind the service's
// own backlog while the ping's deadline ran out. Here the service (this test process) stalls,
// synchronously, for 3.5× the ping's deadline right after a frame left for the daemon.
import type { Duplex } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkspaceDriver } from "../driver/workspace-driver";
import {
  instanceDriver,
  newInstance,
  removeInstance,
  startTestService,
  type TestService,
  waitForStatus,
} from "../testing/harness";
import { stallTheService } from "../testing/stall-the-service";

const PING_MS = 1000;
const STALL_MS = 3500;

/**
 * The real driver, but each frame the service writes to a process's stdin goes past `sent` first,
 * so the test can stall the service right after a given request left for the daemon.
 */
function watchedDriver(real: WorkspaceDriver, sent: (frame: string) => void): WorkspaceDriver {
  return new Proxy(real, {
    get(target, key) {
      if (key === "exec") {
        return async (...args: Parameters<WorkspaceDriver["exec"]>) => {
          const proc = await target.exec(...args);
          const write = proc.stdin.write.bind(proc.stdin) as (...a: unknown[]) => boolean;
          proc.stdin.write = ((chunk: unknown, ...rest: unknown[]) => {
            sent(String(chunk));
            return write(chunk, ...rest);
          }) as Duplex["write"];
          return proc;
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("a workspace daemon while the service itself stalls", () => {
  const instance = newInstance();
  let t: TestService;
  let id: string;
  const log: string[] = [];
  /** Requests (by method) after whose sending the service stalls, once each. */
  let stallAfter: string[] = [];

  beforeAll(async () => {
    const driver = watchedDriver(instanceDriver(instance), (frame) => {
      const method = stallAfter.find((m) => frame.includes(`"method":"${m}"`));
      if (!method) return;
      stallAfter = stallAfter.filter((m) => m !== method);
      // Once the frame has left (the write finishes in this turn), before the answer can be read.
      setImmediate(() => stallTheService(STALL_MS));
    });
    const timeouts = { pingMs: PING_MS, startMs: 10_000, requestMs: PING_MS };
    t = await startTestService({ driver, daemon: { timeouts } }, {}, (line) => log.push(line));
    id = (await t.api.workspace.create.mutate({ name: "stalled-service" })).id;
    await waitForStatus(t.api, id, "running");
    await t.api.files.write.mutate({ workspaceId: id, path: "kept.txt", content: "still here\n" });
  }, 120_000);
  afterAll(async () => {
    stallAfter = [];
    await t?.close();
    await removeInstance(instance);
  });

  const dropped = () => log.filter((line) => line.startsWith(`[daemon ${id}] connection dropped`));

  it("keeps a new daemon whose first ping went unread only because the service stalled", async () => {
    const daemon = t.service.daemons.connection(id);
    daemon.reset();
    stallAfter = ["ping"];
    // Before the fix: "the workspace daemon did not answer within 1 s".
    await daemon.ensure();
    expect(stallAfter).toEqual([]);
    expect(daemon.connected).toBe(true);
  }, 60_000);

  it("answers a call the service stalled after sending, and keeps the daemon (also when the service stalls again)", async () => {
    const daemon = t.service.daemons.connection(id);
    await daemon.ensure();
    // A stall after the call, and another after any ping that would check the daemon then.
    stallAfter = ["fs.read", "ping"];
    await expect(daemon.request("fs.read", { path: "kept.txt", maxBytes: 1000 })).resolves.toMatchObject({
      content: "still here\n",
    });
    expect(stallAfter).toEqual(["ping"]);
    stallAfter = [];
    // Before the fix the call failed and the ping after it ended the connection: "stopped answering".
    expect(dropped()).toEqual([]);
    expect(daemon.connected).toBe(true);
  }, 60_000);
});
