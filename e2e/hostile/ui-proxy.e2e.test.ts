import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login } from "../../apps/sandbox/src/testing/harness";
import { logIn } from "../support/browser";
import { useStackAndBrowser } from "../support/stack-and-browser";

/** Another web server on this machine: it records every request and answers with a script. */
async function foreignServer(): Promise<{
  port: number;
  requests: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}> {
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.headers);
    res.writeHead(200, { "content-type": "text/html", "set-cookie": "coder_session=planted; Path=/" });
    res.end("<script>document.title = 'owned by the foreign server'</script>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Sends a request line exactly as written (browsers and fetch normalise some targets) and reads the status. */
function rawRequest(url: string, target: string, cookie: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("error", reject);
    socket.on("end", () => {
      resolve({ status: Number(answer.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0), text: answer });
    });
    socket.write(
      `GET ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
    );
  });
}

describe("the IDE's page proxy and a foreign server on the same machine", () => {
  const ide = useStackAndBrowser();
  let foreign: Awaited<ReturnType<typeof foreignServer>>;
  beforeAll(async () => {
    foreign = await foreignServer();
  });
  afterAll(async () => {
    await foreign?.close();
  });

  it("refuses a protocol-relative path instead of fetching the foreign server with the owner's cookie", async () => {
    const page = await ide.browser.newPage();
    await logIn(page, ide.stack.url, ide.stack.token);
    const response = await page.goto(`${ide.stack.url}//127.0.0.1:${foreign.port}/_next/a`);
    expect(response?.status()).toBe(400);
    expect(await page.locator("body").innerText()).toMatch(/must name a path on this service/);
    expect(await page.title()).not.toMatch(/owned/);
    expect(foreign.requests).toEqual([]);
    const cookies = await page.context().cookies(ide.stack.url);
    expect(cookies.find((c) => c.name === "coder_session")?.value).not.toBe("planted");
  });

  it("refuses absolute-form, backslash and double-slash targets sent raw", async () => {
    const cookie = await login(ide.stack.url, ide.stack.token);
    const foreignUrl = `127.0.0.1:${foreign.port}`;
    for (const target of [
      `http://${foreignUrl}/login`,
      `http://${foreignUrl}/_next/a`,
      `/\\${foreignUrl}/_next/a`,
      `//${foreignUrl}/_next/a`,
      `/\\/${foreignUrl}/login`,
    ]) {
      const answer = await rawRequest(ide.stack.url, target, cookie);
      expect({ target, status: answer.status }).toEqual({ target, status: 400 });
      expect(answer.text).toMatch(/must name a path on this service/);
    }
    expect(foreign.requests).toEqual([]);
  });
});
