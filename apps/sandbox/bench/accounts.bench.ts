import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { hashPassword, passwordMatches } from "../src/auth/password-hash";
import { guestRoleOn, type Principal } from "../src/auth/principal";
import { WorkspaceRoles } from "../src/auth/workspace-roles";
import { type DatabaseSettings, type Db, openDatabase } from "../src/db/database";
import { startPostgresServer } from "../src/db/testing/postgres-server";
import { startTestService } from "../src/testing/harness";

const now = () => performance.now();
const SIGN_INS = 100;
const PASSWORD = "violet-harbour-lantern";

/**
 * Signing in with a password: an invited account (made through a real invitation link), then the
 * right password posted to `POST /auth/password` as the login page does, each until its session
 * cookie came back; and the argon2id check alone, to show what share of the sign-in it is.
 */
async function signIn(): Promise<BenchResult[]> {
  const t = await startTestService();
  try {
    const { url } = await t.api.user.invite.mutate({ email: "bench@example.com", role: "member" });
    const post = (path: string, body: unknown) =>
      fetch(`${t.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: t.url },
        body: JSON.stringify(body),
      });
    const accepted = await post("/auth/invite", {
      secret: url.split("/invite/")[1],
      displayName: "Bench",
      password: PASSWORD,
    });
    if (accepted.status !== 204) throw new Error(`the invitation was refused: ${await accepted.text()}`);
    const signIns: number[] = [];
    for (let i = 0; i < SIGN_INS; i++) {
      const start = now();
      const res = await post("/auth/password", { email: "bench@example.com", password: PASSWORD });
      await res.arrayBuffer();
      if (res.status !== 204) throw new Error(`sign-in refused: ${res.status}`);
      signIns.push(now() - start);
    }
    const stored = await hashPassword(PASSWORD);
    const checks: number[] = [];
    for (let i = 0; i < SIGN_INS; i++) {
      const start = now();
      await passwordMatches(stored, PASSWORD);
      checks.push(now() - start);
    }
    const signIn = percentile(signIns, 50);
    const check = percentile(checks, 50);
    return [
      {
        name: "sign-in with a password (argon2id), p50",
        value: round(signIn, 1),
        unit: "ms",
        ratio: round(check / signIn, 2),
        notes: `POST /auth/password with the right password until the cookie came back (p99 ${round(percentile(signIns, 99), 1)} ms); ratio: share of it that is the argon2id check (m=19 MiB, t=2, p=1; p50 ${round(check, 1)} ms)`,
      },
    ];
  } finally {
    await t.close();
  }
}

const USERS = 1000;
const WORKSPACES = 10_000;
const CHECKS = 500;
/** Guest checks per sample: one alone is below the clock's resolution. */
const GUEST_BATCH = 10_000;
/** Rows per insert: 7 values each stays under SQLite's 32 766 parameters. */
const BATCH = 1000;

const userId = (i: number) => `user-${String(i % USERS).padStart(4, "0")}`;
const workspaceId = (i: number) => `ws${String(i).padStart(10, "0")}`;
/**
 * Workspace i belongs to user i mod 1 000 (ten each); every even one is shared with user i·7+1 mod
 * 1 000 (ten each: user 43 has workspaces 6, 1 006, … 9 006 shared with them).
 */
const sharedWith = (i: number) => (i % 2 === 0 ? userId(i * 7 + 1) : null);

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let from = 0; from < rows.length; from += BATCH) await insert(rows.slice(from, from + BATCH));
}

/** 1 000 users (the first an admin), 10 000 workspaces, 5 000 named shares. */
async function fill(db: Db): Promise<void> {
  const at = new Date().toISOString();
  const users = Array.from({ length: USERS }, (_, i) => ({
    id: userId(i),
    email: `${userId(i)}@example.com`,
    display_name: `Person ${i}`,
    site_role: i === 0 ? ("admin" as const) : ("member" as const),
    created_at: at,
  }));
  await insertInBatches(users, (batch) => db.insertInto("users").values(batch).execute());
  const workspaces = Array.from({ length: WORKSPACES }, (_, i) => ({
    id: workspaceId(i),
    name: `Workspace ${i}`,
    owner_id: userId(i),
    egress: 0,
    image: "coder-bench",
    created_at: at,
    desired_state: "stopped" as const,
  }));
  await insertInBatches(workspaces, (batch) => db.insertInto("workspaces").values(batch).execute());
  const members = workspaces.flatMap((w, i) => {
    const member = sharedWith(i);
    return member ? [{ workspace_id: w.id, user_id: member, role: "editor" as const, created_at: at }] : [];
  });
  await insertInBatches(members, (batch) => db.insertInto("workspace_members").values(batch).execute());
}

async function p50(runs: number, once: () => Promise<unknown> | unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  return percentile(times, 50);
}

/**
 * What a role check costs now that it asks the database (`WorkspaceRoles.of`, on every call), on a
 * full database, beside the guest's check that every call made before accounts (`guestRoleOn`, in
 * memory); and the `workspace.list` filter for a member and for an admin who asks for all.
 */
async function roleChecks(dialect: string, settings: DatabaseSettings): Promise<BenchResult[]> {
  const db = await openDatabase(settings);
  try {
    await fill(db);
    // As autovacuum would on a real table, so PostgreSQL plans with its statistics.
    if (settings.databaseUrl) await sql`analyze`.execute(db);
    const roles = new WorkspaceRoles(db);
    const member = 43;
    const user = (i: number): Principal => ({
      kind: "user",
      sessionId: "bench",
      userId: userId(i),
      name: `Person ${i}`,
      siteRole: i === 0 ? "admin" : "member",
    });
    const guest: Extract<Principal, { kind: "guest" }> = {
      kind: "guest",
      sessionId: "bench",
      shareId: "bench",
      workspaceId: workspaceId(member),
      name: "Guest",
      role: "viewer",
    };
    // Workspace 6 is shared with user 6·7+1 = 43; workspace 44 is user 44's and not shared with 43.
    const cases = [
      { where: "own workspace", workspace: workspaceId(member), expected: "owner" },
      { where: "a workspace shared with them", workspace: workspaceId(6), expected: "editor" },
      { where: "a foreign workspace", workspace: workspaceId(44), expected: null },
    ] as const;
    const perGuestCheck =
      (await p50(CHECKS, () => {
        for (let i = 0; i < GUEST_BATCH; i++) guestRoleOn(guest, workspaceId(member));
      })) / GUEST_BATCH;
    const full = `${USERS.toLocaleString("en")} users, ${WORKSPACES.toLocaleString("en")} workspaces, ${(WORKSPACES / 2).toLocaleString("en")} named shares`;
    const results: BenchResult[] = [];
    for (const c of cases) {
      const role = await roles.of(user(member), c.workspace);
      if (role !== c.expected) throw new Error(`a member's role on ${c.where} came out ${role}`);
      const value = await p50(CHECKS, () => roles.of(user(member), c.workspace));
      results.push({
        name: `principal check per call, a member on ${c.where} (${dialect}), p50`,
        value: round(value, 3),
        unit: "ms",
        ratio: round(value / perGuestCheck, 0),
        notes: `WorkspaceRoles.of with ${full}; ratio: times the guest's in-memory check (guestRoleOn, what every call cost before accounts: ${round(perGuestCheck * 1e6, 0)} ns)`,
      });
    }
    const listings = [
      { who: "a member (own and shared)", principal: user(member), options: {}, expected: 20 },
      { who: "an admin with all", principal: user(0), options: { all: true }, expected: WORKSPACES },
    ];
    for (const l of listings) {
      const count = (await roles.listings(l.principal, l.options)).size;
      if (count !== l.expected) throw new Error(`the list of ${l.who} had ${count} workspaces`);
      const value = await p50(CHECKS / 10, () => roles.listings(l.principal, l.options));
      results.push({
        name: `workspace.list filter for ${l.who} (${dialect}), p50`,
        value: round(value, 2),
        unit: "ms",
        notes: `WorkspaceRoles.listings, ${l.expected.toLocaleString("en")} workspaces listed, with ${full}`,
      });
    }
    return results;
  } finally {
    await db.destroy();
  }
}

export async function run(): Promise<BenchResult[]> {
  const results = await signIn();
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-bench-accounts-"));
  const server = await startPostgresServer();
  try {
    const admin = new pg.Client(server.url);
    await admin.connect();
    await admin.query("CREATE DATABASE accounts_bench");
    await admin.end();
    const url = new URL(server.url);
    url.pathname = "/accounts_bench";
    results.push(...(await roleChecks("SQLite", { dataDir })));
    results.push(...(await roleChecks("PostgreSQL", { dataDir, databaseUrl: url.toString() })));
    return results;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
