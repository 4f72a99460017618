import { describe, expect, it } from "vitest";
import { loadConfig } from "./config";

describe("loadConfig", () => {
  it("applies defaults", () => {
    const c = loadConfig({ CODER_IMAGE: "img" });
    expect(c.port).toBe(7070);
    expect(c.host).toBe("127.0.0.1");
    expect(c.runtime).toBe("runc");
    expect(c.limits.memoryBytes).toBe(2048 * 1024 * 1024);
  });

  it("bounds the workspace disk at 10 GB and the snapshot store at a quarter of it, at most 1 GB", () => {
    expect(loadConfig({ CODER_IMAGE: "img" }).disk).toEqual({ workspaceMb: 10240, stateMb: 1024 });
    expect(loadConfig({ CODER_IMAGE: "img", CODER_DISK_MB: "64" }).disk).toEqual({
      workspaceMb: 64,
      stateMb: 16,
    });
    expect(loadConfig({ CODER_IMAGE: "img", CODER_DISK_MB: "0" }).disk.workspaceMb).toBe(0);
    expect(() => loadConfig({ CODER_IMAGE: "img", CODER_DISK_MB: "32" })).toThrow(/CODER_DISK_MB/);
    expect(() => loadConfig({ CODER_IMAGE: "img", CODER_DISK_DIR: "disks" })).toThrow(/CODER_DISK_DIR/);
  });

  it("names every invalid setting in one readable error", () => {
    expect(() => loadConfig({ CODER_PORT: "nope", CODER_RUNTIME: "kata" })).toThrow(
      /CODER_PORT[\s\S]*CODER_IMAGE[\s\S]*CODER_RUNTIME|CODER_PORT[\s\S]*CODER_RUNTIME[\s\S]*CODER_IMAGE/,
    );
  });
});
