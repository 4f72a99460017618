import { describe, expect, it } from "vitest";
import { browserResponseHeaders, upstreamRequestHeaders } from "./proxy-headers";

const UPSTREAM = "http://127.0.0.1:7071";

describe("the headers the UI receives", () => {
  it("never include the session cookie, but keep the other cookies", () => {
    const headers = upstreamRequestHeaders(
      { host: "127.0.0.1:7070", cookie: "theme=dark; coder_session=secret; lang=en" },
      "127.0.0.1:7071",
    );
    expect(headers.cookie).toBe("theme=dark; lang=en");
    expect(upstreamRequestHeaders({ cookie: "coder_session=secret" }, "u").cookie).toBeUndefined();
    expect(upstreamRequestHeaders({ cookie: " coder_session =secret" }, "u").cookie).toBeUndefined();
  });

  it("are the allow-list only, with Host set to the upstream", () => {
    const headers = upstreamRequestHeaders(
      {
        host: "localhost:7070",
        accept: "text/html",
        "accept-encoding": "gzip",
        "if-none-match": '"abc"',
        rsc: "1",
        "next-router-state-tree": "%5B%5D",
        "next-router-prefetch": "1",
        "next-url": "/w/x",
        authorization: "Bearer secret",
        "x-forwarded-for": "1.2.3.4",
        "proxy-authorization": "secret",
        connection: "keep-alive, x-custom",
        "x-custom": "1",
      },
      "127.0.0.1:7071",
    );
    expect(headers).toEqual({
      host: "127.0.0.1:7071",
      "x-forwarded-host": "localhost:7070",
      accept: "text/html",
      "accept-encoding": "gzip",
      "if-none-match": '"abc"',
      rsc: "1",
      "next-router-state-tree": "%5B%5D",
      "next-router-prefetch": "1",
      "next-url": "/w/x",
    });
  });
});

describe("the headers the browser receives from the UI", () => {
  it("are the allow-list and the App Router's own, nothing that sets state in the browser", () => {
    const headers = browserResponseHeaders(
      {
        "content-type": "text/html; charset=utf-8",
        "content-length": "12",
        "cache-control": "no-store",
        etag: '"e"',
        vary: "rsc, next-router-state-tree",
        "x-nextjs-stale-time": "300",
        "x-nextjs-prerender": "1",
        "set-cookie": ["coder_session=evil; Path=/"],
        "service-worker-allowed": "/",
        "content-security-policy": "default-src *",
        "access-control-allow-origin": "*",
        "clear-site-data": '"*"',
        "x-powered-by": "Next.js",
        connection: "keep-alive",
        "transfer-encoding": "chunked",
      },
      UPSTREAM,
    );
    expect(headers).toEqual({
      "content-type": "text/html; charset=utf-8",
      "content-length": "12",
      "cache-control": "no-store",
      etag: '"e"',
      vary: "rsc, next-router-state-tree",
      "x-nextjs-stale-time": "300",
      "x-nextjs-prerender": "1",
    });
  });

  it("keep a redirect only when it stays on this origin", () => {
    const location = (value: string) => browserResponseHeaders({ location: value }, UPSTREAM).location;
    expect(location("/login?expired=1")).toBe("/login?expired=1");
    expect(location(`${UPSTREAM}/w/abc?x=1`)).toBe("/w/abc?x=1");
    expect(location("http://127.0.0.1:9999/login")).toBeUndefined();
    expect(location("//evil.example/x")).toBeUndefined();
    expect(location("/\\evil.example/x")).toBeUndefined();
    expect(location("javascript:alert(1)")).toBeUndefined();
    expect(location("login")).toBeUndefined();
  });
});
