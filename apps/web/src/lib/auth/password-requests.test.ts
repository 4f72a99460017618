import { describe, expect, it } from "vitest";
import { acceptInvite, previewInvite, signInWithPassword } from "./password-requests";

function fakeFetch(response: Response | Error) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const impl = async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    if (response instanceof Error) throw response;
    return response;
  };
  return { impl, calls };
}

describe("signing in with a password", () => {
  it("posts the trimmed address and the password as they were typed", async () => {
    const fetch = fakeFetch(new Response(null, { status: 204 }));
    expect(await signInWithPassword(" ada@example.com ", " pass word ", fetch.impl)).toEqual({ ok: true });
    expect(fetch.calls[0]?.url).toBe("/auth/password");
    expect(fetch.calls[0]?.init?.body).toBe(
      JSON.stringify({ email: "ada@example.com", password: " pass word " }),
    );
  });

  it("shows the service's sentence when it refuses", async () => {
    const fetch = fakeFetch(
      Response.json({ error: "that e-mail address and password do not match an account" }, { status: 401 }),
    );
    expect(await signInWithPassword("a@b.c", "x", fetch.impl)).toEqual({
      ok: false,
      error: "that e-mail address and password do not match an account",
    });
  });

  it("asks for what is missing before sending anything", async () => {
    const fetch = fakeFetch(new Response(null, { status: 204 }));
    expect(await signInWithPassword("", "x", fetch.impl)).toEqual({
      ok: false,
      error: "Enter your e-mail address.",
    });
    expect(await signInWithPassword("a@b.c", "", fetch.impl)).toEqual({
      ok: false,
      error: "Enter your password.",
    });
    expect(fetch.calls).toHaveLength(0);
  });
});

describe("an invitation link's page", () => {
  it("refuses two different passwords without sending them", async () => {
    const fetch = fakeFetch(new Response(null, { status: 204 }));
    expect(
      await acceptInvite(
        "s",
        { displayName: "Ada", password: "one-long-password", repeated: "another" },
        fetch.impl,
      ),
    ).toEqual({ ok: false, error: "The two passwords differ; type the same one twice." });
    expect(fetch.calls).toHaveLength(0);
  });

  it("sends the name only for an invitation", async () => {
    const fetch = fakeFetch(new Response(null, { status: 204 }));
    await acceptInvite("s", { password: "one-long-password", repeated: "one-long-password" }, fetch.impl);
    expect(fetch.calls[0]?.init?.body).toBe(JSON.stringify({ secret: "s", password: "one-long-password" }));
  });

  it("tells whom the link is for, or why it cannot be used", async () => {
    const open = fakeFetch(Response.json({ email: "ada@example.com", kind: "invite" }));
    expect(await previewInvite("s", open.impl)).toEqual({
      ok: true,
      email: "ada@example.com",
      kind: "invite",
    });
    const used = fakeFetch(Response.json({ error: "this link cannot be used" }, { status: 403 }));
    expect(await previewInvite("s", used.impl)).toEqual({ ok: false, error: "this link cannot be used" });
  });
});
