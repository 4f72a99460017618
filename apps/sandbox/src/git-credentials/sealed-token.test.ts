import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openToken, sealToken } from "./sealed-token";

describe("a sealed token", () => {
  const key = randomBytes(32);

  it("opens with its key and row, and holds nothing of the token in clear", () => {
    const sealed = sealToken(key, "ghp_secret-token", "alice example.test");
    expect(sealed).not.toContain("ghp_secret-token");
    expect(sealed).not.toContain(Buffer.from("ghp_secret-token").toString("base64url"));
    expect(openToken(key, sealed, "alice example.test")).toBe("ghp_secret-token");
    expect(sealToken(key, "ghp_secret-token", "alice example.test")).not.toBe(sealed);
  });

  it("does not open with another key, in another row, or when changed or cut short", () => {
    const sealed = sealToken(key, "ghp_secret-token", "alice example.test");
    expect(openToken(randomBytes(32), sealed, "alice example.test")).toBeUndefined();
    expect(openToken(key, sealed, "mallory example.test")).toBeUndefined();
    const [version, iv, tag = "", body = ""] = sealed.split(".");
    const flipped = Buffer.from(body, "base64url");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(
      openToken(key, [version, iv, tag, flipped.toString("base64url")].join("."), "alice example.test"),
    ).toBeUndefined();
    const shortTag = Buffer.from(tag, "base64url").subarray(0, 4).toString("base64url");
    expect(openToken(key, [version, iv, shortTag, body].join("."), "alice example.test")).toBeUndefined();
    expect(openToken(key, "not sealed", "alice example.test")).toBeUndefined();
  });
});
