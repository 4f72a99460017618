import { describe, expect, it } from "vitest";
import { linkState } from "./expiry-presets";

const now = Date.parse("2026-11-23T12:00:00Z");
const at = (minutes: number) => new Date(now + minutes * 60_000).toISOString();

describe("how a share link's state reads", () => {
  it("says revoked before anything else", () => {
    expect(linkState({ expiresAt: at(60), revokedAt: at(-1) }, now)).toEqual({
      live: false,
      text: "revoked",
    });
  });
  it("says when a live link expires, in the largest unit that reads well", () => {
    expect(linkState({ expiresAt: at(30), revokedAt: null }, now).text).toBe("expires in 30 min");
    expect(linkState({ expiresAt: at(60 * 24), revokedAt: null }, now).text).toBe("expires in 24 h");
    expect(linkState({ expiresAt: at(60 * 24 * 7), revokedAt: null }, now).text).toBe("expires in 7 days");
    expect(linkState({ expiresAt: null, revokedAt: null }, now).text).toBe("never expires");
  });
  it("says expired once the time passed", () => {
    expect(linkState({ expiresAt: at(-5), revokedAt: null }, now)).toEqual({ live: false, text: "expired" });
  });
});
