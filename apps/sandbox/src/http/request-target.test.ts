import { describe, expect, it } from "vitest";
import { parseRequestTarget, plainRequestTarget } from "./request-target";

/** The parts a caller may read. */
function parse(raw: string | undefined): { pathname: string; search: string } | undefined {
  const url = parseRequestTarget(raw);
  return url && { pathname: url.pathname, search: url.search };
}

describe("parseRequestTarget", () => {
  it("accepts origin-form targets and keeps their path and query", () => {
    expect(parse("/")).toEqual({ pathname: "/", search: "" });
    expect(parse("/login?expired=1")).toEqual({ pathname: "/login", search: "?expired=1" });
    expect(parse("/?x=1")).toEqual({ pathname: "/", search: "?x=1" });
    expect(parse("/_next/static/chunks/a.js")).toEqual({
      pathname: "/_next/static/chunks/a.js",
      search: "",
    });
    expect(parse("/w/abc?_rsc=1x2")?.search).toBe("?_rsc=1x2");
  });

  it("resolves dot segments, so a public prefix cannot hide a private page", () => {
    expect(parse("/_next/../w/abc")?.pathname).toBe("/w/abc");
    expect(parse("/_next/%2e%2e/w/abc")?.pathname).toBe("/w/abc");
    expect(parse("/api/trpc/../../login")?.pathname).toBe("/login");
  });

  it("refuses targets that name another host", () => {
    for (const target of [
      "//127.0.0.1:9999/_next/a",
      "///host/x",
      "/\\127.0.0.1:9999/_next/a",
      "/\\/host",
      "\\\\host/x",
      "http://127.0.0.1:9999/login",
      "HTTP://host/",
      "https://host/_next/a",
      "127.0.0.1:9999",
      "*",
      "",
      "_next/a",
    ]) {
      expect(parse(target), target).toBeUndefined();
    }
  });

  it("refuses whitespace and control characters that URL parsers would drop", () => {
    for (const target of ["/\t/host/x", "/\n/host", "/\r\n/host", "/a b", "/a\u0000", "/a\u007f"]) {
      expect(parse(target), JSON.stringify(target)).toBeUndefined();
    }
    expect(parse(undefined)).toBeUndefined();
  });

  it("leaves a fragment out of the path and query", () => {
    expect(parse("/login#x")).toEqual({ pathname: "/login", search: "" });
  });
});

describe("a plain request-target read without a URL parser", () => {
  it("is exactly what the parser makes of it, for every target it accepts", () => {
    const alphabet = [
      "a",
      "Z",
      "0",
      "/",
      ".",
      "..",
      "?",
      "%",
      "%2e",
      "'",
      "#",
      ";",
      "=",
      "&",
      ":",
      "@",
      "+",
      "~",
      "\\",
      " ",
      "é",
      "-",
      "_",
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    let plain = 0;
    for (let i = 0; i < 20_000; i++) {
      let raw = "/";
      for (let n = next() % 10; n > 0; n--) raw += alphabet[next() % alphabet.length];
      const fast = plainRequestTarget(raw);
      if (fast === undefined) continue;
      plain++;
      const url = parseRequestTarget(raw);
      expect(url && `${url.pathname}${url.search}`, raw).toBe(fast);
    }
    // The generator reaches both kinds.
    expect(plain).toBeGreaterThan(1000);
  });

  it("leaves to the parser what it would change or refuse", () => {
    for (const raw of [
      "/a/../b",
      "/a/./b",
      "/a/..",
      "/.",
      "/a?",
      "/a%2e",
      "/a?b='c'",
      "/a#x",
      "//host",
      "/\\host",
      "/a b",
      "x",
      undefined,
    ]) {
      expect(plainRequestTarget(raw), String(raw)).toBeUndefined();
    }
    expect(plainRequestTarget("/src/main.ts?t=1700000000&import")).toBe("/src/main.ts?t=1700000000&import");
    expect(plainRequestTarget("/a/..b/.c?x=/../")).toBe("/a/..b/.c?x=/../");
  });
});
