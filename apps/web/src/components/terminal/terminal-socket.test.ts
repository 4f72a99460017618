import { describe, expect, it } from "vitest";
import { terminalUrl } from "./terminal-socket";

describe("terminalUrl", () => {
  it("uses the page's own origin, with wss behind https", () => {
    expect(terminalUrl({ protocol: "http:", host: "127.0.0.1:7070" }, "abc123def456", "main")).toBe(
      "ws://127.0.0.1:7070/terminal/abc123def456/main",
    );
    expect(terminalUrl({ protocol: "https:", host: "ide.example" }, "abc123def456", "t1")).toBe(
      "wss://ide.example/terminal/abc123def456/t1",
    );
  });
});
