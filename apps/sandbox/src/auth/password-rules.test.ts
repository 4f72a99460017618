import { describe, expect, it } from "vitest";
import { weakPasswordReason } from "./password-rules";

describe("which passwords are too weak", () => {
  const email = "grace.hopper@example.com";

  it.each([
    ["nine char", /at least 10/],
    ["x".repeat(257), /at most 256/],
    ["grace.hopper@example.com", /e-mail address/],
    ["GRACE.HOPPER-1906", /e-mail address/],
    ["zzzzzzzzzzzz", /repeated/],
    ["121212121212", /repeated/],
    ["abcdefghijkl", /keyboard or the alphabet/],
    ["0987654321", /keyboard or the alphabet/],
    ["qwertyuiopqw", /keyboard or the alphabet/],
  ])("refuses %s", (password, reason) => {
    expect(weakPasswordReason(password, email)).toMatch(reason);
  });

  it.each([
    "violet-harbour-lantern",
    "Tr0ub4dor&3x",
    "korrekt hest batteri",
    "пароль-надёжный-7",
  ])("accepts %s", (password) => {
    expect(weakPasswordReason(password, email)).toBeNull();
  });

  it("counts characters, not UTF-16 units", () => {
    expect(weakPasswordReason("🦊🐻🐼🐨🦁🐯🐸🐵🐔", email)).toMatch(/at least 10/);
  });
});
