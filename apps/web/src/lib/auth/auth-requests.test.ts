import { describe, expect, it } from "vitest";
import { logIn, logOut } from "./auth-requests";

function fakeFetch(response: Response | Error) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const impl = async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    if (response instanceof Error) throw response;
    return response;
  };
  return { impl, calls };
}

describe("logIn", () => {
  it("posts the token as JSON and succeeds on 204", async () => {
    const fetch = fakeFetch(new Response(null, { status: 204 }));
    expect(await logIn(" secret ", fetch.impl)).toEqual({ ok: true });
    expect(fetch.calls[0]?.url).toBe("/auth/login");
    expect(fetch.calls[0]?.init?.method).toBe("POST");
    expect(fetch.calls[0]?.init?.body).toBe(JSON.stringify({ token: "secret" }));
  });

  it("shows the service's reason when the token is refused", async () => {
    const fetch = fakeFetch(Response.json({ error: "invalid token" }, { status: 401 }));
    expect(await logIn("wrong", fetch.impl)).toEqual({ ok: false, error: "invalid token" });
  });

  it("explains a refusal that came without a JSON body", async () => {
    const fetch = fakeFetch(new Response("nope", { status: 401 }));
    expect(await logIn("wrong", fetch.impl)).toEqual({ ok: false, error: "That token is not valid." });
    const other = fakeFetch(new Response("", { status: 502 }));
    expect(await logIn("t", other.impl)).toEqual({ ok: false, error: "Login failed (HTTP 502)." });
  });

  it("says so when the service cannot be reached", async () => {
    const fetch = fakeFetch(new TypeError("fetch failed"));
    expect(await logIn("t", fetch.impl)).toEqual({
      ok: false,
      error: "The service cannot be reached. Is it running?",
    });
  });

  it("asks for a token instead of sending an empty one", async () => {
    const fetch = fakeFetch(new Response(null, { status: 204 }));
    expect(await logIn("   ", fetch.impl)).toEqual({ ok: false, error: "Paste the login token." });
    expect(fetch.calls).toHaveLength(0);
  });
});

describe("logOut", () => {
  it("posts to the logout endpoint", async () => {
    const fetch = fakeFetch(new Response(null, { status: 204 }));
    await logOut(fetch.impl);
    expect(fetch.calls[0]).toMatchObject({ url: "/auth/logout", init: { method: "POST" } });
  });
});
