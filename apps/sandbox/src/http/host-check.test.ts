import { describe, expect, it } from "vitest";
import { hostAllowed } from "./host-check";

const allowed = new Set(["127.0.0.1", "localhost", "[::1]", "ide.example"]);

describe("hostAllowed", () => {
  it("accepts the configured names, with any port and in any case", () => {
    for (const host of [
      "127.0.0.1:7070",
      "localhost",
      "LOCALHOST:7070",
      "[::1]:7070",
      "ide.example",
      "ide.example:443",
    ]) {
      expect(hostAllowed(host, allowed), host).toBe(true);
    }
  });

  it("refuses other names, a missing Host and malformed ones", () => {
    for (const host of [
      undefined,
      "",
      "rebind.example.com",
      "rebind.example.com:7070",
      "localhost.:7070",
      "127.0.0.2:7070",
      "ide.example.evil.com",
      "evil.com@localhost",
      "localhost:7070/x",
      "localhost:abc",
      "[::2]:7070",
      "user@127.0.0.1",
    ]) {
      expect(hostAllowed(host, allowed), String(host)).toBe(false);
    }
  });
});
