import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execIn, openTerminal, startTestService, type TestService, waitForStatus } from "../testing/harness";

/** Polls until the service's warm pool holds a spare. */
async function spareReady(t: TestService): Promise<void> {
  const deadline = Date.now() + 120_000;
  while ((await t.service.workspaces.pool.count()) < 1) {
    if (Date.now() > deadline) throw new Error("the warm pool never made a spare");
    await sleep(100);
  }
}

// A workspace claimed from the warm pool must be indistinguishable from one made on request.
describe.each([
  { made: "made on request", pool: "0" },
  { made: "claimed from the warm pool", pool: "1" },
])("a workspace container $made by the service", ({ pool }) => {
  let t: TestService;
  let id: string;
  beforeAll(async () => {
    t = await startTestService({}, { CODER_WARM_POOL: pool });
    if (pool !== "0") await spareReady(t);
    const created = await t.api.workspace.create.mutate({ name: "hardening" });
    expect(created.status).toBe(pool === "0" ? "creating" : "running");
    id = created.id;
    await waitForStatus(t.api, id, "running");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("runs its processes as uid 1000 with an empty effective capability set", async () => {
    const { out } = await execIn(t.instance, id, ["sh", "-c", "id -u; grep CapEff /proc/self/status"]);
    expect(out).toMatch(/^1000\n/);
    expect(out).toMatch(/CapEff:\s+0000000000000000/);
  });

  it("has no network interface but loopback", async () => {
    const { out } = await execIn(t.instance, id, ["ls", "/sys/class/net"]);
    expect(out.trim().split(/\s+/)).toEqual(["lo"]);
  });

  it("has a read-only root filesystem and a writable workspace", async () => {
    const root = await execIn(t.instance, id, ["sh", "-c", "touch /usr/x 2>&1; echo $?"]);
    expect(root.out).toMatch(/Read-only file system/);
    const ws = await execIn(t.instance, id, ["sh", "-c", "touch /workspace/x && echo ok"]);
    expect(ws.out.trim()).toBe("ok");
  });

  it("has pids and memory limits in force", async () => {
    const { out } = await execIn(t.instance, id, [
      "sh",
      "-c",
      "cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max; cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]);
    const [pids, memory] = out.trim().split("\n");
    expect(Number(pids)).toBe(256);
    expect(Number(memory)).toBe(512 * 1024 * 1024);
  });

  it("has no Docker socket and no host bind mounts inside", async () => {
    const sock = await execIn(t.instance, id, [
      "sh",
      "-c",
      "ls -la /var/run/docker.sock /run/docker.sock 2>&1; true",
    ]);
    expect(sock.out).not.toMatch(/^s/m);
    const mounts = await execIn(t.instance, id, ["cat", "/proc/self/mountinfo"]);
    expect(mounts.out).not.toMatch(/docker\.sock/);
    const allowed = [
      "/workspace",
      "/var/lib/coder",
      "/tmp",
      "/home/coder",
      "/dev",
      "/proc",
      "/sys",
      "/etc/hosts",
      "/etc/hostname",
      "/etc/resolv.conf",
    ];
    const offenders = mounts.out
      .trim()
      .split("\n")
      .map((line) => line.split(" "))
      .filter((fields) => (fields[5] ?? "").split(",").includes("rw"))
      .map((fields) => fields[4] ?? "")
      .filter((mountPoint) => !allowed.some((a) => mountPoint === a || mountPoint.startsWith(`${a}/`)));
    expect(offenders).toEqual([]);
  });

  it("contains a fork bomb typed in the terminal while the service keeps serving", async () => {
    const term = await openTerminal(t.url, t.cookie, id, "bomb");
    await term.waitFor(/\$ /);
    term.send("bomb() { bomb | bomb & }; bomb\r");
    await sleep(4000);
    // The service still answers while the container is saturated.
    const list = await t.api.workspace.list.query();
    expect(list.some((w) => w.id === id)).toBe(true);
    const { out } = await execIn(t.instance, id, [
      "sh",
      "-c",
      "cat /sys/fs/cgroup/pids.current 2>/dev/null || cat /sys/fs/cgroup/pids/pids.current",
    ]).catch(() => ({ out: "256" }));
    expect(Number(out.trim())).toBeLessThanOrEqual(256);
    term.ws.close();
    // Stopping ends the bomb; the workspace starts again cleanly.
    await t.api.workspace.stop.mutate({ workspaceId: id });
    await t.api.workspace.start.mutate({ workspaceId: id });
    await waitForStatus(t.api, id, "running");
  });
});
