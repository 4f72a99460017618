import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../testing/harness";

interface Recorded {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
}

/** A stand-in for the Next.js server that records what reaches it and answers with hostile headers. */
async function recordingUpstream(): Promise<{ url: string; requests: Recorded[]; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method, url: req.url, headers: req.headers });
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "set-cookie": "coder_session=planted; Path=/",
      "service-worker-allowed": "/",
      "access-control-allow-origin": "*",
      "x-nextjs-stale-time": "300",
    });
    res.end("<p>the UI</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("pages proxied to the web UI", () => {
  let upstream: Awaited<ReturnType<typeof recordingUpstream>>;
  let t: TestService;
  beforeAll(async () => {
    upstream = await recordingUpstream();
    t = await startTestService({}, { CODER_WEB_UPSTREAM: upstream.url });
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it("reach the UI without the session cookie or credentials", async () => {
    const res = await fetch(`${t.url}/w/abc?x=1`, {
      headers: {
        cookie: `theme=dark; ${t.cookie}`,
        authorization: "Bearer secret",
        rsc: "1",
        accept: "text/x-component",
      },
    });
    expect(res.status).toBe(200);
    const seen = upstream.requests.at(-1);
    expect(seen?.url).toBe("/w/abc?x=1");
    expect(seen?.headers.cookie).toBe("theme=dark");
    expect(seen?.headers.authorization).toBeUndefined();
    expect(seen?.headers.rsc).toBe("1");
    expect(JSON.stringify(seen?.headers)).not.toContain(t.cookie.split("=")[1]);
  });

  it("come back without the UI's Set-Cookie or other browser-state headers", async () => {
    const res = await fetch(`${t.url}/login`);
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("service-worker-allowed")).toBeNull();
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("x-nextjs-stale-time")).toBe("300");
    expect(await res.text()).toBe("<p>the UI</p>");
  });
});
