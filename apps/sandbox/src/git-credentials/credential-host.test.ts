import { describe, expect, it } from "vitest";
import { hostOfGitRequest, parseCredentialHost } from "./credential-host";

describe("a credential's host", () => {
  it("is stored as the URL parser reads it: lower-cased, with a port only when it is not https's", () => {
    expect(parseCredentialHost("GitHub.com")).toBe("github.com");
    expect(parseCredentialHost(" git.example.test:8443 ")).toBe("git.example.test:8443");
    expect(parseCredentialHost("example.test:443")).toBe("example.test");
    expect(parseCredentialHost("10.0.0.5:3000")).toBe("10.0.0.5:3000");
    expect(parseCredentialHost("[::1]:8080")).toBe("[::1]:8080");
    expect(parseCredentialHost("bücher.example")).toBe("xn--bcher-kva.example");
  });

  it("refuses anything but a host and its port: a user, a path, a scheme, a wildcard, a query", () => {
    for (const text of [
      "",
      "user@example.test",
      "user:pw@example.test",
      "example.test/org",
      "https://example.test",
      "*.example.test",
      "example.test?x",
      "example.test#x",
      "exa mple.test",
      "example.test:99999",
      "example.test\\evil",
      "x".repeat(300),
    ]) {
      expect(() => parseCredentialHost(text), text).toThrow(/is not a host/);
    }
  });
});

describe("the host git asks a login for", () => {
  const stored = parseCredentialHost("example.test");
  const asked = (protocol: string, host: string) => hostOfGitRequest({ protocol, host })?.host;

  it("matches a stored host only when name and port are the same", () => {
    expect(asked("https", "example.test")).toBe(stored);
    expect(asked("https", "EXAMPLE.test:443")).toBe(stored);
    expect(asked("https", "example.test.attacker.test")).not.toBe(stored);
    expect(asked("https", "attacker.test")).not.toBe(stored);
    expect(asked("https", "example.test:8443")).not.toBe(stored);
    expect(asked("https", "sub.example.test")).not.toBe(stored);
    expect(asked("https", "example.test.")).not.toBe(stored);
  });

  it("names no host for other protocols or for a host with a path or user in it", () => {
    expect(asked("ssh", "example.test")).toBeUndefined();
    expect(asked("file", "example.test")).toBeUndefined();
    expect(asked("https", "attacker.test/example.test")).toBeUndefined();
    expect(asked("https", "example.test@attacker.test")).toBeUndefined();
    expect(asked("https", "")).toBeUndefined();
  });
});
