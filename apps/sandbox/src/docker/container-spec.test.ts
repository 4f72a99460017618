import { describe, expect, it } from "vitest";
import { containerSpec } from "./container-spec";

const opts = { instance: "t", runtime: "runc" as const, memoryBytes: 1 << 30, nanoCpus: 1e9, pidsLimit: 256 };

describe("workspace container spec", () => {
  const spec = containerSpec({ id: "abcdefabcdef", image: "img", egress: false }, opts);
  const host = spec.HostConfig ?? {};

  it("runs as the unprivileged coder user with every capability dropped", () => {
    expect(spec.User).toBe("1000:1000");
    expect(host.CapDrop).toEqual(["ALL"]);
    expect(host.CapAdd).toBeUndefined();
    expect(host.Privileged).toBe(false);
    expect(host.SecurityOpt).toContain("no-new-privileges:true");
    expect(host.SecurityOpt?.some((o: string) => o.includes("unconfined"))).toBe(false);
  });

  it("has a read-only root, no host mounts and no Docker socket", () => {
    expect(host.ReadonlyRootfs).toBe(true);
    expect(host.Binds).toEqual([]);
    expect(host.Mounts?.every((m) => m.Type === "volume")).toBe(true);
    expect(JSON.stringify(spec)).not.toContain("docker.sock");
  });

  it("keeps the daemon's snapshots on a volume of their own, outside the workspace", () => {
    expect(host.Mounts?.map((m) => [m.Source, m.Target])).toEqual([
      ["coder-t-abcdefabcdef-workspace", "/workspace"],
      ["coder-t-abcdefabcdef-state", "/var/lib/coder"],
    ]);
  });

  it("is limited in pids, memory (no extra swap) and CPU, with an init process", () => {
    expect(host.PidsLimit).toBe(256);
    expect(host.Memory).toBe(1 << 30);
    expect(host.MemorySwap).toBe(host.Memory);
    expect(host.NanoCpus).toBe(1e9);
    expect(host.Init).toBe(true);
  });

  it("has no network unless egress was enabled, and then the instance's egress network without IPv6", () => {
    expect(host.NetworkMode).toBe("none");
    const withEgress = containerSpec({ id: "abcdefabcdef", image: "img", egress: true }, opts);
    expect(withEgress.HostConfig?.NetworkMode).toBe("coder-egress-t");
    expect(withEgress.HostConfig?.Sysctls).toEqual({ "net.ipv6.conf.all.disable_ipv6": "1" });
  });

  it("uses the configured OCI runtime", () => {
    expect(
      containerSpec({ id: "abcdefabcdef", image: "img", egress: false }, { ...opts, runtime: "runsc" })
        .HostConfig?.Runtime,
    ).toBe("runsc");
  });

  it("carries no secrets from the service's environment", () => {
    expect(spec.Env?.every((e) => /^(HOME|LANG|TERM|USER|SHELL)=/.test(e))).toBe(true);
  });
});
