import { describe, expect, it } from "vitest";
import { appRequestHeaders, browserHeaders } from "./preview-headers";

describe("the headers that cross the preview proxy", () => {
  it("gives the app no coder_ cookie, no client X-Forwarded-* or Forwarded, and no hop-by-hop header", () => {
    const headers = appRequestHeaders({
      host: "3000-abcdefghijkl.localhost:7070",
      cookie: "coder_preview=a; theme=dark; CODER_session=b; coder_x=c; lang=en",
      "x-forwarded-for": "203.0.113.9",
      "x-forwarded-proto": "https",
      forwarded: "for=203.0.113.9",
      connection: "keep-alive, x-secret",
      "x-secret": "hop",
      "keep-alive": "timeout=5",
      "transfer-encoding": "chunked",
      accept: "text/html",
    });
    expect(headers).toEqual({
      host: "3000-abcdefghijkl.localhost:7070",
      cookie: "theme=dark; lang=en",
      accept: "text/html",
    });
  });

  it("drops the Cookie header when only coder_ cookies were in it", () => {
    expect(appRequestHeaders({ cookie: "coder_preview=a" })).toEqual({});
  });

  it("keeps a WebSocket handshake's Upgrade and Connection", () => {
    expect(
      appRequestHeaders({ connection: "Upgrade", upgrade: "websocket", "sec-websocket-key": "k" }, true),
    ).toEqual({ connection: "Upgrade", upgrade: "websocket", "sec-websocket-key": "k" });
  });

  it("makes the app's cookies host-only and drops any it names coder_", () => {
    const raw = [
      ["Set-Cookie", "a=1; Domain=.localhost; Path=/"],
      ["Set-Cookie", "coder_preview=x; Path=/"],
      ["set-cookie", "b=2; domain=localhost"],
      ["Content-Type", "text/html"],
      ["X-Frame-Options", "SAMEORIGIN"],
      ["Connection", "keep-alive"],
      ["Transfer-Encoding", "chunked"],
    ].flatMap(([name, value]) => [Buffer.from(name as string), Buffer.from(value as string)]);
    expect({ ...browserHeaders(raw) }).toEqual({
      "set-cookie": ["a=1; Path=/", "b=2"],
      "content-type": "text/html",
      "x-frame-options": "SAMEORIGIN",
    });
  });

  it("passes a header the app sent twice as two, and a header named like a prototype as a header", () => {
    const raw = ["Link", "</a.css>; rel=preload", "link", "</b.js>; rel=preload", "__proto__", "x"];
    expect({ ...browserHeaders(raw) }).toEqual({
      link: ["</a.css>; rel=preload", "</b.js>; rel=preload"],
      ["__proto__"]: "x",
    });
  });

  it("keeps the first of a header a browser reads once (a second Content-Length or Location is dropped)", () => {
    const raw = ["Content-Length", "5", "content-length", "5", "Location", "/a", "location", "/b"];
    expect({ ...browserHeaders(raw) }).toEqual({ "content-length": "5", location: "/a" });
  });
});
