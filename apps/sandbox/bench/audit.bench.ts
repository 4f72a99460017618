import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { AuditLog } from "../src/audit/audit-log";
import { type DatabaseSettings, type Db, openDatabase } from "../src/db/database";
import { startPostgresServer } from "../src/db/testing/postgres-server";

const ENTRIES = 1_000_000;
/** Rows per insert: 6 values each stays under SQLite's 32 766 parameters. */
const BATCH = 5000;
const RUNS = 50;
const TARGET_MS = 20;
const ACTIONS = ["auth.signed_in", "workspace.started", "terminal.opened", "agent.tool_call"] as const;

/** A million entries over 1 000 workspaces and 100 people, oldest first. */
async function fill(db: Db): Promise<void> {
  const start = Date.now() - 365 * 86_400_000;
  for (let from = 0; from < ENTRIES; from += BATCH) {
    const rows = Array.from({ length: BATCH }, (_, k) => {
      const i = from + k;
      return {
        at: new Date(start + i * 30_000).toISOString(),
        actor_kind: "user" as const,
        actor_id: `user-${i % 100}`,
        actor_name: `Person ${i % 100}`,
        action: ACTIONS[i % ACTIONS.length] as string,
        workspace_id: `ws${String(i % 1000).padStart(10, "0")}`,
      };
    });
    await db.insertInto("audit_events").values(rows).execute();
  }
}

/** p50 of `audit.list`'s query: the newest 100, and the newest 100 of one workspace. */
async function measure(dialect: string, settings: DatabaseSettings): Promise<BenchResult[]> {
  const db = await openDatabase(settings);
  try {
    await fill(db);
    const audit = new AuditLog(db, () => {});
    const time = async (filters: { workspaceId?: string }) => {
      const runs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        const { entries } = await audit.list({ all: true }, filters, { limit: 100 });
        runs.push(performance.now() - started);
        if (entries.length !== 100) throw new Error(`the list gave ${entries.length} entries`);
      }
      return round(percentile(runs, 50));
    };
    const latest = await time({});
    const ofWorkspace = await time({ workspaceId: "ws0000000007" });
    const row = (name: string, value: number): BenchResult => ({
      name,
      value,
      unit: "ms p50",
      target: `≤ ${TARGET_MS} ms`,
      pass: value <= TARGET_MS,
      notes: `${ENTRIES.toLocaleString("en")} entries`,
    });
    return [
      row(`audit.list latest 100 (${dialect})`, latest),
      row(`audit.list latest 100 of one workspace (${dialect})`, ofWorkspace),
    ];
  } finally {
    await db.destroy();
  }
}

export async function run(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-bench-audit-"));
  const server = await startPostgresServer();
  try {
    const admin = new pg.Client(server.url);
    await admin.connect();
    await admin.query("CREATE DATABASE audit_bench");
    await admin.end();
    const url = new URL(server.url);
    url.pathname = "/audit_bench";
    return [
      ...(await measure("SQLite", { dataDir })),
      ...(await measure("PostgreSQL", { dataDir, databaseUrl: url.toString() })),
    ];
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
