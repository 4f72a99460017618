import { describe, expect, it } from "vitest";
import { egressAllowSchema } from "../net/egress-allow-list";
import { checkGitUrl } from "./git-url";

const allow = egressAllowSchema.parse("10.1.2.0/24:8080,192.168.5.5");

describe("which repository URLs are cloned", () => {
  it("takes https anywhere", () => {
    expect(checkGitUrl("https://example.com/a/b.git", [])).toEqual({
      url: "https://example.com/a/b.git",
      host: "example.com",
      plainHttp: false,
    });
  });

  it("takes plain http only to an address and port the operator opened", () => {
    expect(checkGitUrl("http://10.1.2.3:8080/r.git", allow).plainHttp).toBe(true);
    expect(checkGitUrl("http://192.168.5.5/r.git", allow).plainHttp).toBe(true);
    for (const url of [
      "http://10.1.2.3:8081/r.git",
      "http://10.1.3.3:8080/r.git",
      "http://example.com/r.git",
      "http://192.168.5.5.nip.io/r.git",
    ])
      expect(() => checkGitUrl(url, allow), url).toThrow(/plain http is allowed only to an address opened/);
  });

  it.each([
    ["file:///etc", /must start with https/],
    ["ssh://git@example.com/r.git", /must start with https/],
    ["ext::sh -c touch% /tmp/pwned", /must start with https/],
    ["-uhelp", /must start with https/],
    ["https://user:secret@example.com/r.git", /no name or token into the URL/],
  ])("refuses %s", (url, message) => {
    expect(() => checkGitUrl(url, allow)).toThrow(message);
  });
});
