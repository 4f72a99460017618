import http from "node:http";
import type { AddressInfo } from "node:net";
import { ToolError } from "@coder/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockedReason } from "./address-policy";
import { type FetchOptions, fetchPage } from "./fetch-page";

let server: http.Server;
let base: string;
const hits: string[] = [];

/** Lets the test server on 127.0.0.1 through; everything else is judged as in production. */
const allowTestServer = (ip: string) => (ip === "127.0.0.1" ? undefined : blockedReason(ip));

const options = (extra: Partial<FetchOptions> = {}): FetchOptions => ({
  format: "markdown",
  timeoutMs: 5000,
  signal: new AbortController().signal,
  policy: allowTestServer,
  ...extra,
});

async function failure(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error("expected the fetch to fail");
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    const redirect = (to: string) => res.writeHead(302, { location: to }).end();
    switch (req.url) {
      case "/page":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          "<html><head><style>p{}</style><script>alert(1)</script></head><body><h1>Title</h1><p>Some <a href='/x'>link</a> text</p><ul><li>one</li></ul></body></html>",
        );
        return;
      case "/json":
        res.writeHead(200, { "content-type": "application/json" }).end('{"a":1}');
        return;
      case "/to-page":
        return redirect("/page");
      case "/to-metadata":
        return redirect("http://169.254.169.254/latest/meta-data/");
      case "/to-private":
        return redirect("http://10.1.2.3/admin");
      case "/to-mapped":
        return redirect("http://[::ffff:127.0.0.2]/");
      case "/to-internal-name":
        return redirect("http://internal.example/");
      case "/to-file":
        return redirect("file:///etc/passwd");
      case "/loop":
        return redirect("/loop");
      case "/big":
        res.writeHead(200, { "content-type": "text/plain" });
        for (let i = 0; i < 6; i++) res.write(Buffer.alloc(1024 * 1024, 97));
        res.end();
        return;
      case "/declared-big":
        res.writeHead(200, { "content-type": "text/plain", "content-length": String(50 * 1024 * 1024) });
        res.write("a");
        return;
      case "/image":
        res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([137, 80, 78, 71]));
        return;
      case "/hang":
        return;
      default:
        res.writeHead(404).end("nope");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("the address policy", () => {
  it("refuses every address that is not public", () => {
    for (const ip of [
      "127.0.0.1",
      "127.8.9.10",
      "10.0.0.1",
      "172.16.5.4",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "::ffff:a9fe:a9fe",
      "64:ff9b::a00:1",
      "2002:c0a8:101::1",
      "[::1]",
    ]) {
      expect(blockedReason(ip), ip).toBeDefined();
    }
  });

  it("lets public addresses through", () => {
    for (const ip of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect(blockedReason(ip), ip).toBeUndefined();
    }
  });
});

describe("fetching a page", () => {
  it("turns HTML into Markdown without scripts or styles", async () => {
    const page = await fetchPage(`${base}/page`, options());
    expect(page.content_type).toMatch(/text\/html/);
    expect(page.content).toContain("# Title");
    expect(page.content).toContain("[link](/x)");
    expect(page.content).toContain("-   one");
    expect(page.content).not.toMatch(/alert|p\{\}/);
  });

  it("gives plain text or the raw HTML when asked", async () => {
    const text = await fetchPage(`${base}/page`, options({ format: "text" }));
    expect(text.content).toContain("Some link text");
    expect(text.content).not.toContain("](");
    const html = await fetchPage(`${base}/page`, options({ format: "html" }));
    expect(html.content).toContain("<h1>Title</h1>");
  });

  it("returns text formats as they are and follows redirects", async () => {
    expect((await fetchPage(`${base}/json`, options())).content).toBe('{"a":1}');
    const page = await fetchPage(`${base}/to-page`, options());
    expect(page.url).toBe(`${base}/page`);
  });

  it("refuses a literal loopback address before connecting", async () => {
    const before = hits.length;
    const error = await failure(fetchPage(`${base}/page`, options({ policy: blockedReason })));
    expect(error.code).toBe("permission_denied");
    expect(hits.length).toBe(before);
  });

  it("refuses a name that resolves to loopback", async () => {
    const before = hits.length;
    const port = (server.address() as AddressInfo).port;
    const error = await failure(
      fetchPage(`http://localhost:${port}/page`, options({ policy: blockedReason })),
    );
    expect(error.code).toBe("permission_denied");
    expect(error.message).toMatch(/localhost/);
    expect(hits.length).toBe(before);
  });

  it("refuses a name with any private address among its answers", async () => {
    const resolve = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ];
    const error = await failure(
      fetchPage("http://rebind.example/", options({ policy: blockedReason, resolve })),
    );
    expect(error.code).toBe("permission_denied");
  });

  it("checks every redirect hop like the first", async () => {
    const resolve = async (host: string) => {
      if (host === "internal.example") return [{ address: "192.168.1.10", family: 4 }];
      throw Object.assign(new Error("unexpected lookup"), { code: "ENOTFOUND" });
    };
    for (const path of ["/to-metadata", "/to-private", "/to-mapped", "/to-internal-name", "/to-file"]) {
      const error = await failure(fetchPage(`${base}${path}`, options({ resolve })));
      expect(error.code, path).toBe("permission_denied");
    }
  });

  it("gives up on redirect loops", async () => {
    const error = await failure(fetchPage(`${base}/loop`, options()));
    expect(error.message).toMatch(/redirects/);
  });

  it("refuses bodies over 5 MB, announced or not", async () => {
    expect((await failure(fetchPage(`${base}/big`, options()))).message).toMatch(/larger than 5 MB/);
    expect((await failure(fetchPage(`${base}/declared-big`, options()))).message).toMatch(/larger than 5 MB/);
  });

  it("says so for binary content, missing pages, slow servers and unknown names", async () => {
    expect((await failure(fetchPage(`${base}/image`, options()))).code).toBe("binary_file");
    expect((await failure(fetchPage(`${base}/missing`, options()))).code).toBe("not_found");
    expect((await failure(fetchPage(`${base}/hang`, options({ timeoutMs: 200 })))).code).toBe("timeout");
    const resolve = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    expect((await failure(fetchPage("http://nowhere.example/", options({ resolve })))).code).toBe(
      "not_found",
    );
  });

  it("stops when the call is cancelled", async () => {
    const controller = new AbortController();
    const pending = fetchPage(`${base}/hang`, options({ signal: controller.signal }));
    controller.abort();
    expect((await failure(pending)).code).toBe("aborted");
  });

  it("refuses other schemes and addresses with credentials", async () => {
    expect((await failure(fetchPage("ftp://example.com/x", options()))).code).toBe("permission_denied");
    expect((await failure(fetchPage("http://user:pw@example.com/", options()))).code).toBe(
      "permission_denied",
    );
    expect((await failure(fetchPage("not a url", options()))).code).toBe("invalid_args");
  });
});
