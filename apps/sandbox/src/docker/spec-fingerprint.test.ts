import { describe, expect, it } from "vitest";
import { specFingerprint } from "./spec-fingerprint";

const opts = { instance: "t", runtime: "runc" as const, memoryBytes: 1 << 30, nanoCpus: 1e9, pidsLimit: 256 };
const disk = { workspaceMb: 1024, stateMb: 256, toolImage: "img" };

describe("the fingerprint of how workspaces are made", () => {
  it("is the same for every workspace made alike, whatever the instance", () => {
    expect(specFingerprint("img:1", opts)).toBe(specFingerprint("img:1", { ...opts, instance: "other" }));
  });

  it("changes with the image, the runtime, a limit or a disk size, which retires the warm pool", () => {
    const base = specFingerprint("img:1", { ...opts, disk });
    expect(specFingerprint("img:2", { ...opts, disk })).not.toBe(base);
    expect(specFingerprint("img:1", { ...opts, disk, runtime: "runsc" })).not.toBe(base);
    expect(specFingerprint("img:1", { ...opts, disk, memoryBytes: 1 << 31 })).not.toBe(base);
    expect(specFingerprint("img:1", { ...opts, disk, pidsLimit: 512 })).not.toBe(base);
    expect(specFingerprint("img:1", { ...opts, disk: { ...disk, workspaceMb: 2048 } })).not.toBe(base);
    expect(specFingerprint("img:1", opts)).not.toBe(base);
  });
});
