import { describe, expect, it } from "vitest";
import { AccessCloseCode, accessEndedMessage } from "./access-close";

describe("accessEndedMessage", () => {
  it("names the logged-out code and no other", () => {
    expect(AccessCloseCode.LoggedOut).toBeGreaterThanOrEqual(4000);
    expect(AccessCloseCode.LoggedOut).toBeLessThan(5000);
    expect(accessEndedMessage(AccessCloseCode.LoggedOut)).toBe("You were logged out.");
    for (const code of [1000, 1006, 1008, 1011, 4000]) expect(accessEndedMessage(code)).toBeNull();
  });
});
