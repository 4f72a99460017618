import { describe, expect, it } from "vitest";
import { browserJobSpec } from "./browser-job";
import { LABEL_JOB } from "./volume-job";

const opts = { instance: "t", runtime: "runc" as const, memoryBytes: 1 << 30, nanoCpus: 1e9, pidsLimit: 256 };

describe("the browser job beside a workspace", () => {
  const spec = browserJobSpec(
    "abcdefabcdef",
    { image: "browser", args: ["{}"], timeoutMs: 1, outputLimit: 1 },
    opts,
  );
  const host = spec.HostConfig ?? {};

  it("joins the workspace container's network namespace and no network of its own", () => {
    expect(host.NetworkMode).toBe("container:coder-t-abcdefabcdef");
    expect(spec.NetworkingConfig).toBeUndefined();
    expect(host.PortBindings).toBeUndefined();
  });

  it("runs unprivileged, without capabilities, on a read-only root with tmpfs for Chromium's profile", () => {
    expect(spec.User).toBe("1000:1000");
    expect(host.CapDrop).toEqual(["ALL"]);
    expect(host.CapAdd).toBeUndefined();
    expect(host.Privileged).toBe(false);
    expect(host.SecurityOpt).toContain("no-new-privileges:true");
    expect(host.ReadonlyRootfs).toBe(true);
    expect(Object.keys(host.Tmpfs ?? {}).sort()).toEqual(["/home/coder", "/tmp"]);
  });

  it("gets none of the workspace's files, no host path, and the workspace's limits", () => {
    expect(host.Mounts).toEqual([]);
    expect(host.Binds).toEqual([]);
    expect(host.Memory).toBe(1 << 30);
    expect(host.NanoCpus).toBe(1e9);
    expect(host.PidsLimit).toBe(256);
  });

  it("is marked as the workspace's job, so removing the workspace removes it", () => {
    expect(spec.Labels?.[LABEL_JOB]).toBe("abcdefabcdef");
    expect(spec.Labels?.["dev.coder.workspace"]).toBeUndefined();
  });
});
