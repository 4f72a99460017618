import { describe, expect, it } from "vitest";
import { closeReason } from "./close-reason";

describe("closeReason", () => {
  it("keeps a short reason on one line", () => {
    expect(closeReason("pylsp exited (1):\n  Traceback")).toBe("pylsp exited (1): Traceback");
  });

  it("cuts a long reason to 123 bytes of UTF-8 without splitting a character", () => {
    const reason = closeReason(`${"é".repeat(100)}`);
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
    expect(reason.endsWith("…")).toBe(true);
    expect(reason).not.toContain("\uFFFD");
  });
});
