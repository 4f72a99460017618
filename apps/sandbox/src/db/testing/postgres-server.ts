import { execFile } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ensurePostgres } from "../../../../../scripts/lib/postgres.mjs";

const run = promisify(execFile);

export interface PostgresServer {
  /** A superuser URL over the server's unix socket (`…/postgres?host=<socket folder>`). */
  url: string;
  stop(): Promise<void>;
}

/**
 * PostgreSQL refuses to run as root: as root the server runs as the `postgres` system user (made
 * by Debian's package) or, failing that, `nobody`, in a folder that user owns.
 */
async function serverUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    try {
      const uid = Number((await run("id", ["-u", name])).stdout.trim());
      const gid = Number((await run("id", ["-g", name])).stdout.trim());
      return { uid, gid };
    } catch {
      // no such user: try the next
    }
  }
  throw new Error("running as root, and neither a postgres nor a nobody user exists to run PostgreSQL");
}

/**
 * A throwaway PostgreSQL server for tests: `initdb` and `pg_ctl` in a temporary folder, listening
 * only on a unix socket in that folder (no port to collide with), without fsync (a crash loses
 * only test data). Installs Debian's postgresql first when it is missing (as root).
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = await ensurePostgres();
  const user = await serverUser();
  const dir = mkdtempSync(path.join(tmpdir(), "coder-pg-"));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, "data");
  const as = { cwd: dir, ...(user ?? {}), env: { ...process.env, LC_ALL: "C" } };
  try {
    await run(
      path.join(bin, "initdb"),
      ["-D", data, "-U", "coder", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"],
      as,
    );
    const options = [
      "-c listen_addresses=''",
      `-c unix_socket_directories='${dir}'`,
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=300",
    ].join(" ");
    await run(
      path.join(bin, "pg_ctl"),
      ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"],
      as,
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start a PostgreSQL server: ${(error as Error).message}`);
  }
  return {
    url: `postgres://coder@localhost/postgres?host=${encodeURIComponent(dir)}`,
    async stop() {
      await run(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"], as).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
