import { describe, expect, it } from "vitest";
import { errorCode, errorMessage, isConflict, isUnauthorized } from "./error-message";

function trpcLikeError(message: string, code: string): Error {
  return Object.assign(new Error(message), { data: { code } });
}

describe("errorMessage", () => {
  it("shows the message the service wrote for the person", () => {
    expect(errorMessage(new Error("the workspace is not running"))).toBe("the workspace is not running");
  });

  it("falls back to a generic sentence when the error has no message", () => {
    expect(errorMessage(new Error(""))).toBe("Something went wrong. Please try again.");
    expect(errorMessage(undefined)).toBe("Something went wrong. Please try again.");
  });

  it("accepts a thrown string", () => {
    expect(errorMessage("offline")).toBe("offline");
  });
});

describe("error codes", () => {
  it("recognises a write conflict so the editor can offer reload or overwrite", () => {
    const error = trpcLikeError("the file changed on disk", "CONFLICT");
    expect(errorCode(error)).toBe("CONFLICT");
    expect(isConflict(error)).toBe(true);
    expect(isUnauthorized(error)).toBe(false);
  });

  it("recognises an expired session so the page can go to the login", () => {
    expect(isUnauthorized(trpcLikeError("log in first", "UNAUTHORIZED"))).toBe(true);
  });

  it("finds no code on errors that have none", () => {
    expect(errorCode(new Error("network down"))).toBeUndefined();
    expect(errorCode({ data: null })).toBeUndefined();
    expect(errorCode({ data: { code: 42 } })).toBeUndefined();
    expect(errorCode(null)).toBeUndefined();
  });
});
