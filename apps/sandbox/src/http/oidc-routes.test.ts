import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AuditLog } from "../audit/audit-log";
import { Accounts } from "../auth/accounts";
import { AuthService } from "../auth/auth-service";
import { SESSION_COOKIE } from "../auth/http-auth";
import { MAX_LIVE_FLOWS } from "../auth/oidc-flows";
import type { OidcSignIn } from "../auth/oidc-sign-in";
import { startOidcSignIn } from "../auth/oidc-start";
import { PeopleChanges } from "../auth/people-changes";
import { oidcConfig, oidcEnv } from "../config/oidc-config";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { LocalBus } from "../events/live-bus";
import { OidcTestBrowser } from "../testing/oidc-browser";
import { startOidcProvider, type TestOidcProvider } from "../testing/oidc-provider";
import { type OidcRouteDeps, oidcRoutes } from "./oidc-routes";

/** The service's OIDC routes on a loopback port, on a real database, against a real provider. */
async function serveRoutes(deps: () => OidcRouteDeps): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    const route = oidcRoutes(deps()).find((r) => r.path === url.pathname && r.access === "anyone");
    if (!route || route.access !== "anyone") return void res.writeHead(404).end();
    Promise.resolve(route.handle({ req, res, url, params: {} })).catch((err: Error) => {
      res.writeHead(500).end(err.stack);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const configOf = (env: Record<string, string>) => {
  const parsed = z.object(oidcEnv).parse(env);
  const config = oidcConfig(parsed);
  if (!config) throw new Error("OIDC is not configured");
  return config;
};

describe.each(DIALECTS)("signing in with OIDC on %s", (dialect) => {
  let database: TestDatabase;
  let auth: AuthService;
  let accounts: Accounts;
  let audit: AuditLog;
  let provider: TestOidcProvider;
  let service: { url: string; server: http.Server };
  let signIn: OidcSignIn;
  let browser: OidcTestBrowser;
  const log: string[] = [];

  async function configure(env: Record<string, string> = {}) {
    await signIn?.stop();
    signIn = startOidcSignIn(configOf({ ...provider.env, ...env }), database.db, (line) => log.push(line));
    await signIn.ready();
  }

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    auth = new AuthService(database.db);
    accounts = new Accounts(database.db);
    audit = new AuditLog(database.db, (line) => log.push(line));
    service = await serveRoutes(() => ({
      auth,
      audit,
      oidc: signIn,
      secureCookies: false,
      peopleChanges: new PeopleChanges(new LocalBus(), () => undefined),
      log: (l) => log.push(l),
    }));
    provider = await startOidcProvider([`${service.url}/auth/oidc/callback`]);
    await configure({ CODER_OIDC_ALLOWED_DOMAINS: "example.com" });
    browser = new OidcTestBrowser();
  });
  afterEach(async () => {
    await signIn.stop();
    await provider.close();
    service.server.closeAllConnections();
    await new Promise((resolve) => service.server.close(resolve));
    await database.close();
  });

  /** The browser's way to the provider: `/auth/oidc/start`, then the provider's own pages as `login`. */
  async function throughProvider(login: string, who = browser): Promise<string> {
    const start = await who.request(`${service.url}/auth/oidc/start`);
    expect(start.status).toBe(302);
    return who.signInAtProvider(
      start.headers.get("location") ?? "",
      login,
      `${service.url}/auth/oidc/callback`,
    );
  }

  /** Back at the service: where it sends the browser (the IDE, or the login page with a reason). */
  async function callback(url: string, who = browser): Promise<string> {
    const res = await who.request(url);
    expect(res.status).toBe(303);
    return res.headers.get("location") ?? "";
  }

  async function signedInAs(who = browser) {
    return auth.session(who.cookies.get(SESSION_COOKIE));
  }

  it("a person signs in through the provider's login form and is in under their own name, as a member", async () => {
    expect(await callback(await throughProvider("ada"))).toBe("/");
    const principal = await signedInAs();
    expect(principal).toMatchObject({ kind: "user", name: "Ada Lovelace", siteRole: "member" });
    expect(browser.cookies.has("coder_oidc_flow")).toBe(false);
    await audit.settled();
    const { entries } = await audit.list({ all: true }, { action: "auth.signed_in" }, { limit: 10 });
    expect(entries).toMatchObject([
      { actor: { kind: "user", name: "Ada Lovelace" }, detail: { via: "oidc" } },
    ]);
    // The next sign-in finds the same account through the provider's subject.
    const again = new OidcTestBrowser();
    expect(await callback(await throughProvider("ada", again), again)).toBe("/");
    expect((await signedInAs(again))?.kind === "user" && (await signedInAs(again))).toMatchObject({
      userId: principal?.kind === "user" ? principal.userId : "?",
    });
  });

  it("a callback whose state is not the one this browser's flow holds is refused", async () => {
    const back = new URL(await throughProvider("ada"));
    back.searchParams.set("state", "forged-state");
    expect(await callback(back.href)).toBe("/login?oidc=expired");
    expect(await signedInAs()).toBeNull();
  });

  it("a callback in a browser that did not start the flow is refused (a code handed to someone else signs no one in)", async () => {
    const back = await throughProvider("ada");
    const victim = new OidcTestBrowser();
    expect(await callback(back, victim)).toBe("/login?oidc=expired");
    expect(await signedInAs(victim)).toBeNull();
  });

  it("a code replayed, with the same flow or with a new one, is refused", async () => {
    const back = await throughProvider("ada");
    const used = new Map(browser.cookies);
    expect(await callback(back)).toBe("/");
    // The same callback again, with the flow cookie it had: the flow was single use.
    const replay = new OidcTestBrowser();
    for (const [name, value] of used) replay.cookies.set(name, value);
    replay.cookies.delete(SESSION_COOKIE);
    expect(await callback(back, replay)).toBe("/login?oidc=expired");
    // The code with a fresh flow of the attacker's own (its state): the provider refuses the code.
    const attacker = new OidcTestBrowser();
    const start = await attacker.request(`${service.url}/auth/oidc/start`);
    const state = new URL(start.headers.get("location") ?? "").searchParams.get("state") ?? "";
    const stolen = new URL(back);
    stolen.searchParams.set("state", state);
    expect(await callback(stolen.href, attacker)).toBe("/login?oidc=provider");
    expect(await signedInAs(attacker)).toBeNull();
  });

  it("an address of a domain that is not allowed is refused and gets no account", async () => {
    expect(await callback(await throughProvider("foreign"))).toBe("/login?oidc=domain");
    expect(await signedInAs()).toBeNull();
    expect(await accounts.byEmail("eve@elsewhere.test")).toBeNull();
  });

  it("an address the provider has not verified is refused and gets no account", async () => {
    expect(await callback(await throughProvider("unverified"))).toBe("/login?oidc=unverified");
    expect(await signedInAs()).toBeNull();
    expect(await accounts.byEmail("mallory@example.com")).toBeNull();
  });

  it("a suspended person is refused", async () => {
    expect(await callback(await throughProvider("ada"))).toBe("/");
    await database.db
      .updateTable("users")
      .set({ suspended_at: new Date().toISOString() })
      .where("email", "=", "ada@example.com")
      .execute();
    const later = new OidcTestBrowser();
    expect(await callback(await throughProvider("ada", later), later)).toBe("/login?oidc=suspended");
    expect(await signedInAs(later)).toBeNull();
    await audit.settled();
    const { entries } = await audit.list({ all: true }, { action: "auth.sign_in_failed" }, { limit: 10 });
    expect(entries).toMatchObject([
      { actor: { kind: "guest", id: null }, detail: { via: "oidc", reason: "suspended" } },
    ]);
  });

  it("an account of that address is linked at the first sign-in, and an admin address becomes an admin", async () => {
    await configure({ CODER_OIDC_ADMIN_EMAILS: "grace@example.com" });
    const invited = await accounts.create({
      email: "ada@example.com",
      displayName: "Ada (invited)",
      siteRole: "member",
    });
    expect(await callback(await throughProvider("ada"))).toBe("/");
    expect(await signedInAs()).toMatchObject({ userId: invited.id, name: "Ada (invited)" });
    const grace = new OidcTestBrowser();
    expect(await callback(await throughProvider("grace", grace), grace)).toBe("/");
    expect(await signedInAs(grace)).toMatchObject({ name: "Grace Hopper", siteRole: "admin" });
  });

  it("an account already linked to another person of this provider is not handed over by a matching address", async () => {
    const taken = await accounts.create({ email: "ada@example.com", displayName: "Ada", siteRole: "member" });
    await database.db
      .insertInto("user_identities")
      .values({
        issuer: provider.issuer,
        subject: "someone-else",
        user_id: taken.id,
        created_at: new Date().toISOString(),
      })
      .execute();
    expect(await callback(await throughProvider("ada"))).toBe("/login?oidc=linked");
    expect(await signedInAs()).toBeNull();
  });

  it("a flood of starts leaves a bounded number of flows behind; starts are refused plainly past it", async () => {
    const expires = new Date(Date.now() + 600_000).toISOString();
    for (let batch = 0; batch < MAX_LIVE_FLOWS / 500; batch++) {
      const rows = Array.from({ length: 500 }, (_, i) => ({
        id_hash: `flood-${batch}-${i}`,
        state: "s",
        nonce: "n",
        code_verifier: "v",
        redirect_uri: `${service.url}/auth/oidc/callback`,
        expires_at: expires,
      }));
      await database.db.insertInto("oidc_flows").values(rows).execute();
    }
    const start = await browser.request(`${service.url}/auth/oidc/start`);
    expect(start.headers.get("location")).toBe("/login?oidc=unavailable");
    const { live } = await database.db
      .selectFrom("oidc_flows")
      .select((eb) => eb.fn.countAll<number | string>().as("live"))
      .executeTakeFirstOrThrow();
    expect(Number(live)).toBe(MAX_LIVE_FLOWS);
  });

  it("the login page learns the way is on, under the provider's name", async () => {
    const res = await fetch(`${service.url}/auth/methods`);
    expect(await res.json()).toEqual({ oidc: { name: "Test Provider", available: true } });
  });
});

describe("a provider that is down when the service starts", () => {
  it("leaves the way unavailable, refuses a start plainly, and offers it once the provider answers", async () => {
    const database = await openTestDatabase("sqlite");
    const auth = new AuthService(database.db);
    // A port that nothing answers on yet: the provider's own, closed for now.
    const first = await startOidcProvider([]);
    await first.close();
    const signIn = startOidcSignIn(configOf(first.env), database.db, () => undefined);
    const service = await serveRoutes(() => ({
      auth,
      audit: new AuditLog(database.db, () => undefined),
      oidc: signIn,
      secureCookies: false,
      peopleChanges: new PeopleChanges(new LocalBus(), () => undefined),
      log: () => undefined,
    }));
    try {
      expect(await (await fetch(`${service.url}/auth/methods`)).json()).toMatchObject({
        oidc: { available: false },
      });
      const start = await fetch(`${service.url}/auth/oidc/start`, { redirect: "manual" });
      expect(start.headers.get("location")).toBe("/login?oidc=unavailable");
      const port = new URL(first.issuer).port;
      const provider = await startOidcProvider([`${service.url}/auth/oidc/callback`], Number(port));
      try {
        await vi.waitFor(() => expect(signIn.available).toBe(true), { timeout: 15_000, interval: 100 });
        const browser = new OidcTestBrowser();
        const begun = await browser.request(`${service.url}/auth/oidc/start`);
        const back = await browser.signInAtProvider(
          begun.headers.get("location") ?? "",
          "ada",
          `${service.url}/auth/oidc/callback`,
        );
        expect((await browser.request(back)).headers.get("location")).toBe("/");
      } finally {
        await provider.close();
      }
    } finally {
      await signIn.stop();
      service.server.closeAllConnections();
      await new Promise((resolve) => service.server.close(resolve));
      await database.close();
    }
  });
});
