import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/database";
import { startTestService, type TestService, testServiceConfig, trpcClient } from "../testing/harness";
import { ACCOUNT_SUSPENDED, INVITE_REFUSED, PASSWORD_REFUSED } from "./password-routes";

interface Answer {
  status: number;
  body: string;
  cookie: string | undefined;
  /** How long the answer took (ms). */
  took: number;
}

/**
 * Posts JSON to `path` from the loopback address `from` (the whole 127.0.0.0/8 is this machine's,
 * so each is another client address to the service), as the login and invitation pages do.
 */
function post(url: string, path: string, data: unknown, from = "127.0.0.1"): Promise<Answer> {
  const started = performance.now();
  const body = JSON.stringify(data);
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, url),
      {
        method: "POST",
        localAddress: from,
        agent: false,
        headers: {
          "content-type": "application/json",
          origin: url,
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            cookie: res.headers["set-cookie"]?.[0]?.split(";")[0],
            took: performance.now() - started,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const secretOf = (url: string) => url.split("/invite/")[1] ?? "";
const errorOf = (answer: Answer) => (JSON.parse(answer.body) as { error: string }).error;

describe("invited accounts signing in with a password", () => {
  let t: TestService;
  /** Makes an account through a real invitation and returns its e-mail address. */
  let invited: (email: string, password: string, role?: "admin" | "member") => Promise<string>;
  beforeAll(async () => {
    t = await startTestService();
    invited = async (email, password, role = "member") => {
      const { url } = await t.api.user.invite.mutate({ email, role });
      const accepted = await post(t.url, "/auth/invite", {
        secret: secretOf(url),
        displayName: email,
        password,
      });
      expect(accepted.status).toBe(204);
      return email;
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  it("signs a person in through their invitation link and then with their password", async () => {
    const { url, expiresAt } = await t.api.user.invite.mutate({ email: "Ada@Example.com", role: "member" });
    expect(url).toMatch(new RegExp(`^${t.url}/invite/[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(6.99 * 86_400_000);
    const preview = await post(t.url, "/auth/invite/preview", { secret: secretOf(url) });
    expect(JSON.parse(preview.body)).toEqual({ email: "ada@example.com", kind: "invite" });
    const accepted = await post(t.url, "/auth/invite", {
      secret: secretOf(url),
      displayName: "Ada Lovelace",
      password: "violet-harbour-lantern",
    });
    expect(accepted.status).toBe(204);
    expect(await trpcClient(t.url, accepted.cookie).workspace.whoami.query()).toMatchObject({
      kind: "user",
      name: "Ada Lovelace",
    });
    const signedIn = await post(t.url, "/auth/password", {
      email: "ada@example.com",
      password: "violet-harbour-lantern",
    });
    expect(signedIn.status).toBe(204);
    expect(await trpcClient(t.url, signedIn.cookie).workspace.whoami.query()).toMatchObject({
      name: "Ada Lovelace",
    });
  });

  it("refuses a used or unknown invitation link with one plain sentence", async () => {
    const { url } = await t.api.user.invite.mutate({ email: "once@example.com", role: "member" });
    const body = { secret: secretOf(url), displayName: "Once", password: "violet-harbour-lantern" };
    expect((await post(t.url, "/auth/invite", body, "127.0.0.9")).status).toBe(204);
    for (const again of [
      await post(t.url, "/auth/invite", { ...body, displayName: "Twice" }, "127.0.0.9"),
      await post(t.url, "/auth/invite/preview", { secret: secretOf(url) }, "127.0.0.9"),
      await post(t.url, "/auth/invite/preview", { secret: "no-such-secret" }, "127.0.0.9"),
    ]) {
      expect(again.status).toBe(403);
      expect(errorOf(again)).toBe(INVITE_REFUSED);
    }
  });

  it("refuses a weak password on the invitation page with its reason", async () => {
    const { url } = await t.api.user.invite.mutate({ email: "weak@example.com", role: "member" });
    const answer = await post(t.url, "/auth/invite", {
      secret: secretOf(url),
      displayName: "Weak",
      password: "weak@example.com",
    });
    expect(answer.status).toBe(400);
    expect(errorOf(answer)).toMatch(/e-mail address/);
  });

  it("gives an unknown address and a wrong password the same answer", async () => {
    await invited("known@example.com", "violet-harbour-lantern");
    const unknown = await post(
      t.url,
      "/auth/password",
      { email: "nobody@example.com", password: "x" },
      "127.0.0.2",
    );
    const wrong = await post(
      t.url,
      "/auth/password",
      { email: "known@example.com", password: "x" },
      "127.0.0.3",
    );
    expect([unknown.status, unknown.body]).toEqual([401, JSON.stringify({ error: PASSWORD_REFUSED })]);
    expect([wrong.status, wrong.body]).toEqual([unknown.status, unknown.body]);
  });

  it("holds back wrong passwords from one address longer with each failure, whichever accounts they try", async () => {
    // Each address and each account starts at 250 ms and doubles: fresh accounts, one address.
    const took: number[] = [];
    for (const n of [1, 2, 3]) {
      took.push(
        (await post(t.url, "/auth/password", { email: `a${n}@example.com`, password: "x" }, "127.0.0.4"))
          .took,
      );
    }
    expect(took[0]).toBeGreaterThanOrEqual(490);
    expect(took[1]).toBeGreaterThanOrEqual(740);
    expect(took[2]).toBeGreaterThanOrEqual(1240);
  });

  it("holds back wrong passwords for one account longer with each failure, whichever addresses they come from", async () => {
    const email = await invited("target@example.com", "violet-harbour-lantern");
    const took: number[] = [];
    for (const from of ["127.0.0.5", "127.0.0.6", "127.0.0.7"]) {
      took.push((await post(t.url, "/auth/password", { email, password: "guess" }, from)).took);
    }
    expect(took[0]).toBeGreaterThanOrEqual(490);
    expect(took[1]).toBeGreaterThanOrEqual(740);
    expect(took[2]).toBeGreaterThanOrEqual(1240);
    // The person who knows the password still gets in.
    expect(
      (await post(t.url, "/auth/password", { email, password: "violet-harbour-lantern" }, "127.0.0.8"))
        .status,
    ).toBe(204);
  });

  it("refuses a suspended user with a plain message, but only once the password was right", async () => {
    const email = await invited("paused@example.com", "violet-harbour-lantern");
    const db = await openDatabase(testServiceConfig(t.instance, t.dataDir), () => undefined);
    try {
      await db
        .updateTable("users")
        .set({ suspended_at: new Date().toISOString() })
        .where("email", "=", email)
        .execute();
    } finally {
      await db.destroy();
    }
    const wrong = await post(t.url, "/auth/password", { email, password: "not-the-password" }, "127.0.0.10");
    expect(errorOf(wrong)).toBe(PASSWORD_REFUSED);
    const right = await post(
      t.url,
      "/auth/password",
      { email, password: "violet-harbour-lantern" },
      "127.0.0.11",
    );
    expect([right.status, errorOf(right), right.cookie]).toEqual([403, ACCOUNT_SUSPENDED, undefined]);
  });

  it("lets only an administrator make invitations and reset links", async () => {
    const email = await invited("member@example.com", "violet-harbour-lantern");
    const cookie = (
      await post(t.url, "/auth/password", { email, password: "violet-harbour-lantern" }, "127.0.0.12")
    ).cookie;
    const member = trpcClient(t.url, cookie);
    await expect(member.user.invite.mutate({ email: "friend@example.com", role: "admin" })).rejects.toThrow(
      /only an administrator/,
    );
    await expect(member.user.resetLink.mutate({ userId: "first-admin" })).rejects.toThrow(
      /only an administrator/,
    );
  });

  it("sets a new password through a reset link and signs the old sessions out", async () => {
    const email = await invited("forgetful@example.com", "violet-harbour-lantern");
    const old = await post(
      t.url,
      "/auth/password",
      { email, password: "violet-harbour-lantern" },
      "127.0.0.13",
    );
    const whoami = await trpcClient(t.url, old.cookie).workspace.whoami.query();
    expect(whoami.name).toBe(email);
    const users = await openDatabase(testServiceConfig(t.instance, t.dataDir), () => undefined);
    const userId = await users
      .selectFrom("users")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow()
      .finally(() => users.destroy());
    const { url } = await t.api.user.resetLink.mutate({ userId: userId.id });
    const reset = await post(t.url, "/auth/invite", {
      secret: secretOf(url),
      password: "saffron-meadow-compass",
    });
    expect(reset.status).toBe(204);
    await expect(trpcClient(t.url, old.cookie).workspace.whoami.query()).rejects.toThrow(/log in/);
    expect(
      (await post(t.url, "/auth/password", { email, password: "saffron-meadow-compass" }, "127.0.0.14"))
        .status,
    ).toBe(204);
  });
});
