import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runJobContainer } from "../docker/job-container";
import { requireImage } from "../testing/harness";
import { outputOf } from "../testing/process-output";
import type { SwarmDriver } from "./swarm-driver";
import { newSwarmInstance, testSwarmDriver } from "./testing/test-driver";
import { startTestSwarm, type TestSwarm } from "./testing/test-swarm";

const image = requireImage();

/** Prints, per `host:port`, whether a TCP connection got anywhere (an answer or a refusal) or not. */
const PROBE = `for target in "$@"; do
  out=$(timeout 3 bash -c "echo > /dev/tcp/\${target%:*}/\${target#*:}" 2>&1) && echo "$target reached" && continue
  case "$out" in *refused*) echo "$target reached" ;; *) echo "$target blocked" ;; esac
done`;

/** Prints every setuid, setgid or file-capability program of the image, then "searched". */
const FIND_PRIVILEGED = `import os, stat
for d, _, files in os.walk("/"):
    if d.startswith(("/proc", "/sys", "/dev")): continue
    for f in files:
        p = os.path.join(d, f)
        try: st = os.lstat(p)
        except OSError: continue
        if not stat.S_ISREG(st.st_mode): continue
        if st.st_mode & (stat.S_ISUID | stat.S_ISGID): print("setuid/setgid", p)
        if "security.capability" in os.listxattr(p, follow_symlinks=False): print("capabilities", p)
print("searched")`;

// The Docker driver's hardening (docker/hardening.docker.test.ts), against a Swarm task on the worker:
// the Swarm API lacks no-new-privileges, so the image has no program that could gain privileges and
// the bounding set is empty.
describe("a workspace run by the Swarm driver", () => {
  let swarm: TestSwarm;
  let driver: SwarmDriver;
  const id = "hardened";

  async function run(cmd: string): Promise<string> {
    return (await outputOf(await driver.exec(id, ["sh", "-c", cmd]))).out;
  }

  beforeAll(async () => {
    swarm = await startTestSwarm([image]);
    driver = testSwarmDriver(swarm, newSwarmInstance(), ["node.role==worker"]);
    await driver.create({ id, image, egress: false });
    await driver.start(id);
  });
  afterAll(async () => {
    await driver?.removeAll().catch(() => undefined);
    await swarm?.remove();
  });

  it("runs as uid 1000 with empty effective and bounding capability sets", async () => {
    const out = await run("id -u; grep -E '^Cap(Eff|Bnd)' /proc/1/status /proc/self/status");
    expect(out).toMatch(/^1000\n/);
    expect(out.match(/Cap(Eff|Bnd):\s+0000000000000000/g)).toHaveLength(4);
  });

  it("comes from an image without setuid, setgid or file-capability programs", async () => {
    // As root in a container of its own (no network), so no folder is hidden from the search.
    const { output } = await runJobContainer(
      swarm.worker.docker,
      {
        Image: image,
        User: "0",
        Cmd: ["python3", "-c", FIND_PRIVILEGED],
        HostConfig: { NetworkMode: "none" },
      },
      { outputLimit: 1 << 20 },
    );
    expect(output).toBe("searched\n");
  });

  it("has a read-only root, a writable workspace and home, and pids and memory limits", async () => {
    expect(await run("touch /usr/x 2>&1; echo $?")).toMatch(/Read-only file system/);
    expect(await run("touch /workspace/x ~/x /tmp/x && echo ok")).toBe("ok\n");
    const [pids, memory] = (
      await run("cat /sys/fs/cgroup/pids/pids.max /sys/fs/cgroup/memory/memory.limit_in_bytes")
    )
      .trim()
      .split("\n");
    expect(Number(pids)).toBe(256);
    expect(Number(memory)).toBe(512 * 1024 * 1024);
  });

  it("reaches nothing: not the host, not either engine, not the internet", async () => {
    const hostAddresses = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === "IPv4" && !a.internal)
      .map((a) => a?.address as string);
    const targets = [
      ...hostAddresses.map((a) => `${a}:22`),
      `${swarm.worker.hostAddress}:22`,
      `${swarm.manager.address}:2377`,
      `${swarm.worker.address}:2377`,
      // The manager's engine API over TLS, for the instances on workers (CODER_SWARM_MANAGER).
      `${swarm.manager.address}:2376`,
      `${swarm.manager.linkAddress}:2376`,
      "1.1.1.1:443",
      "8.8.8.8:53",
    ];
    // The probe tells: from a container on the worker's default bridge, the manager's Swarm port is
    // reached (the way Swarm gives a service without networks the default bridge).
    const control = await runJobContainer(
      swarm.worker.docker,
      { Image: image, Cmd: ["bash", "-c", PROBE, "probe", `${swarm.manager.address}:2377`] },
      { outputLimit: 4096 },
    );
    expect(control.output).toBe(`${swarm.manager.address}:2377 reached\n`);

    const out = await run(`bash -c '${PROBE.replaceAll("'", "'\\''")}' probe ${targets.join(" ")}`);
    expect(out.trim().split("\n")).toEqual(targets.map((t) => `${t} blocked`));
    // Its one interface besides loopback is its own internal network: no route out of it.
    expect(
      await run("ls /sys/class/net | sort | tr '\\n' ' '; echo; cat /proc/net/route | tail -n +2 | wc -l"),
    ).toMatch(/^eth0 lo \n1\n$/);
  });
});
