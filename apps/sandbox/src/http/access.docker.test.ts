import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { execIn, startTestService, type TestService, trpcClient, waitForStatus } from "../testing/harness";

function upgrade(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.on("open", () => {
      ws.close();
      resolve(101);
    });
    ws.on("error", () => resolve(-1));
  });
}

describe("who may call the service", () => {
  let t: TestService;
  let id: string;
  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "access" })).id;
    await waitForStatus(t.api, id, "running");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses a forged session cookie", async () => {
    const forged = trpcClient(t.url, "coder_session=forged");
    await expect(forged.workspace.list.query()).rejects.toThrow(/log in first/);
  });

  it("refuses a terminal WebSocket from another origin", async () => {
    const wsUrl = `${t.url.replace("http", "ws")}/terminal/${id}/main`;
    expect(await upgrade(wsUrl, { origin: "http://evil.example", cookie: t.cookie })).toBe(403);
    expect(await upgrade(wsUrl, { cookie: t.cookie })).toBe(403);
    expect(await upgrade(wsUrl, { origin: t.url, cookie: t.cookie })).toBe(101);
  });

  it("refuses a WebSocket to an unknown endpoint even when logged in", async () => {
    expect(await upgrade(`${t.url.replace("http", "ws")}/nope`, { origin: t.url, cookie: t.cookie })).toBe(
      404,
    );
  });

  it("refuses a cross-origin state-changing request even with the cookie", async () => {
    const res = await fetch(`${t.url}/api/trpc/workspace.create`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://evil.example", cookie: t.cookie },
      body: JSON.stringify({ name: "csrf" }),
    });
    expect(res.status).toBe(403);
  });

  it("refuses a wrong login token with a clear message", async () => {
    const res = await fetch(`${t.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: t.url },
      body: JSON.stringify({ token: "wrong" }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "that token is not valid" });
  });

  it("answers a service path asked with the wrong method or not known with an error, never a page", async () => {
    const wrongMethod = await fetch(`${t.url}/auth/login`, { headers: { cookie: t.cookie } });
    expect([wrongMethod.status, wrongMethod.headers.get("allow")]).toEqual([405, "POST"]);
    expect(await wrongMethod.json()).toEqual({ error: "use POST" });
    for (const path of ["/api/nope", "/auth/nope", "/api/uploads/", "/auth/login/"]) {
      const res = await fetch(`${t.url}${path}`, {
        method: "POST",
        headers: { cookie: t.cookie, origin: t.url },
      });
      expect(res.status, path).toBe(404);
    }
  });

  it("redirects page requests without a session to the login page", async () => {
    const res = await fetch(`${t.url}/w/${id}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
  });

  it("refuses file paths that leave /workspace", async () => {
    await execIn(t.instance, id, ["ln", "-s", "/etc", "/workspace/etc-link"]);
    for (const path of ["../etc/passwd", "/etc/passwd", "etc-link/passwd", "a/../../etc/passwd"]) {
      await expect(t.api.files.read.query({ workspaceId: id, path }), path).rejects.toThrow(
        /outside|denied|refused/i,
      );
    }
    await expect(
      t.api.files.write.mutate({ workspaceId: id, path: "etc-link/evil", content: "x" }),
    ).rejects.toThrow(/outside|denied|refused/i);
    await expect(
      t.api.files.rename.mutate({ workspaceId: id, from: "etc-link", to: "../escaped" }),
    ).rejects.toThrow(/outside|denied|refused/i);
  });

  it("explains invalid input field by field", async () => {
    await expect(t.api.workspace.create.mutate({ name: "" })).rejects.toThrow(
      /name: give the workspace a name/,
    );
    await expect(t.api.files.read.query({ workspaceId: "NOPE!", path: "a" })).rejects.toThrow(/workspaceId/);
  });
});
