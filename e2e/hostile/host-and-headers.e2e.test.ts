import http from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { login } from "../../apps/sandbox/src/testing/harness";
import { logIn } from "../support/browser";
import { useStackAndBrowser } from "../support/stack-and-browser";

const REBIND = "rebind.example.com";

/** A request to the service under another Host name, as a DNS-rebinding page would send it. */
function requestAs(
  url: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path, headers }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => {
        body += c.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: "" });
    });
    req.on("error", reject);
    req.end();
  });
}

/** A page of another local site that frames `target` and says when the frame has loaded. */
async function framingSite(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<iframe id="ide" src="${target}" onload="document.title = 'frame loaded'"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("host names, framing and security headers", () => {
  const ide = useStackAndBrowser();
  let cookie: string;
  beforeAll(async () => {
    cookie = await login(ide.stack.url, ide.stack.token);
  });

  it("refuses a page, the API and a WebSocket asked for under a rebinding host name", async () => {
    const port = new URL(ide.stack.url).port;
    const host = `${REBIND}:${port}`;
    const asRebind = { host, origin: `http://${host}`, cookie };
    const page = await requestAs(ide.stack.url, "/login", asRebind);
    expect(page).toEqual({ status: 421, body: "this service does not answer to that host name" });
    expect((await requestAs(ide.stack.url, "/api/trpc/workspace.list", asRebind)).status).toBe(421);
    expect((await requestAs(ide.stack.url, "/healthz", asRebind)).status).toBe(421);
    const upgrade = await requestAs(ide.stack.url, "/terminal/w0000000000000000/main", {
      ...asRebind,
      connection: "Upgrade",
      upgrade: "websocket",
      "sec-websocket-version": "13",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
    });
    expect(upgrade.status).toBe(421);
    // The names a person uses still work.
    expect((await requestAs(ide.stack.url, "/healthz", { host: `localhost:${port}` })).status).toBe(200);
  });

  it("sends a CSP that forbids framing, nosniff and a referrer policy with pages and API answers", async () => {
    for (const path of ["/login", "/_next/does-not-exist", "/api/trpc/workspace.list", "/healthz"]) {
      const res = await fetch(`${ide.stack.url}${path}`, { headers: { cookie } });
      const csp = res.headers.get("content-security-policy") ?? "";
      expect({ path, frameAncestors: csp.includes("frame-ancestors 'none'") }).toEqual({
        path,
        frameAncestors: true,
      });
      expect(csp).toContain("object-src 'none'");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
    }
  });

  it("shows nothing of the IDE inside a frame of another local site", async () => {
    const page = await ide.browser.newPage();
    await logIn(page, ide.stack.url, ide.stack.token);
    const site = await framingSite(`${ide.stack.url}/`);
    try {
      await page.goto(site.url);
      await expect.poll(() => page.title(), { timeout: 15_000 }).toBe("frame loaded");
      const frame = page.frames().find((f) => f !== page.mainFrame());
      expect(frame).toBeDefined();
      expect(frame?.url()).not.toContain(ide.stack.url);
      expect(await frame?.locator("[data-testid=workspace-name]").count()).toBe(0);
    } finally {
      await site.close();
    }
  });

  it("refuses a change sent without an Origin, even with the session cookie", async () => {
    const res = await fetch(`${ide.stack.url}/api/trpc/workspace.create`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ name: "no origin" }),
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/cross-origin request refused/);
    const logout = await fetch(`${ide.stack.url}/auth/logout`, { method: "POST", headers: { cookie } });
    expect(logout.status).toBe(403);
  });
});
