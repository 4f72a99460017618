import { describe, expect, it } from "vitest";
import { AccessCloseCode, accessRefusal } from "./access-close";
import { CollabCloseCode } from "./collab";

describe("accessRefusal", () => {
  it("gives each access code a message and whether to reconnect, and no other code one", () => {
    for (const code of Object.values(AccessCloseCode)) {
      expect(code).toBeGreaterThanOrEqual(4000);
      expect(code).toBeLessThan(5000);
    }
    expect(accessRefusal(AccessCloseCode.LoggedOut)).toEqual({
      message: "You were logged out.",
      retry: false,
    });
    expect(accessRefusal(AccessCloseCode.Forbidden)?.retry).toBe(false);
    expect(accessRefusal(AccessCloseCode.NoWorkspace)?.retry).toBe(false);
    expect(accessRefusal(AccessCloseCode.NotRunning)?.retry).toBe(true);
    for (const code of [1000, 1006, 1008, 1011, 4000]) expect(accessRefusal(code)).toBeNull();
  });
});

describe("the collaboration's close codes", () => {
  it("are in the application range and never read as an access notice", () => {
    for (const code of Object.values(CollabCloseCode)) {
      expect(code).toBeGreaterThanOrEqual(4000);
      expect(code).toBeLessThan(5000);
      expect(Object.values(AccessCloseCode)).not.toContain(code);
      expect(accessRefusal(code)).toBeNull();
    }
  });
});
