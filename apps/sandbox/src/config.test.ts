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

  it("names every invalid setting in one readable error", () => {
    expect(() => loadConfig({ CODER_PORT: "nope", CODER_RUNTIME: "kata" })).toThrow(
      /CODER_PORT[\s\S]*CODER_IMAGE[\s\S]*CODER_RUNTIME|CODER_PORT[\s\S]*CODER_RUNTIME[\s\S]*CODER_IMAGE/,
    );
  });
});
