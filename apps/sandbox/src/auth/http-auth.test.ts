import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clearedSessionCookie, originAllowed, readCookie, sessionCookie } from "./http-auth";

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe("http auth helpers", () => {
  it("reads a cookie among several", () => {
    expect(readCookie(req({ cookie: "a=1; coder_session=xyz; b=2" }), "coder_session")).toBe("xyz");
    expect(readCookie(req({ cookie: "a=1" }), "coder_session")).toBeUndefined();
    expect(readCookie(req({}), "coder_session")).toBeUndefined();
  });

  it("reads a malformed cookie header without throwing", () => {
    expect(readCookie(req({ cookie: "coder_session=%E0%A4%A" }), "coder_session")).toBe("%E0%A4%A");
    expect(readCookie(req({ cookie: ";;=;coder_session" }), "coder_session")).toBeUndefined();
  });

  it("issues an HttpOnly SameSite cookie, Secure when asked", () => {
    const c = sessionCookie("v", 60, false);
    expect(c).toContain("HttpOnly");
    expect(c).toContain("SameSite=Lax");
    expect(c).not.toContain("Secure");
    expect(sessionCookie("v", 60, true)).toContain("Secure");
    expect(clearedSessionCookie()).toMatch(/^coder_session=; .*Max-Age=0/);
  });

  it("allows the service's own origin and configured ones only", () => {
    expect(originAllowed(req({ host: "localhost:7070", origin: "http://localhost:7070" }), [])).toBe(true);
    expect(originAllowed(req({ host: "localhost:7070", origin: "http://evil.example" }), [])).toBe(false);
    expect(originAllowed(req({ host: "localhost:7070" }), [])).toBe(false);
    expect(
      originAllowed(req({ host: "10.0.0.1:7070", origin: "https://ide.example" }), ["https://ide.example"]),
    ).toBe(true);
  });
});
