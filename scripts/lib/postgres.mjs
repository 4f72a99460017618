// Tests only: Debian's PostgreSQL server programs (initdb, pg_ctl, postgres), which the test
// set-up uses to start a throwaway server of its own. No cluster is made or started here.
import { constants } from "node:fs";
import { access, readdir } from "node:fs/promises";
import path from "node:path";
import { aptInstall, canInstallPackages } from "./apt.mjs";
import { findCommand } from "./run.mjs";
import { info, SetupError } from "./steps.mjs";

// Debian keeps the server programs out of PATH, one folder per major version.
const DEBIAN_ROOT = "/usr/lib/postgresql";

async function isExecutable(file) {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** The folder holding initdb and pg_ctl (newest Debian version first, then PATH), or null. */
export async function findPostgresBin() {
  const versions = await readdir(DEBIAN_ROOT).catch(() => []);
  for (const version of versions.filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))) {
    const bin = path.join(DEBIAN_ROOT, version, "bin");
    if ((await isExecutable(path.join(bin, "initdb"))) && (await isExecutable(path.join(bin, "pg_ctl"))))
      return bin;
  }
  const initdb = await findCommand("initdb");
  return initdb && (await findCommand("pg_ctl")) ? path.dirname(initdb) : null;
}

/** Finds (or, as root on Debian, installs) the PostgreSQL server programs; returns their folder. */
export async function ensurePostgres() {
  const found = await findPostgresBin();
  if (found) {
    info(`using ${found}`);
    return found;
  }
  if (!(await canInstallPackages())) {
    throw new SetupError(
      "The database tests need a PostgreSQL server. Install it (Debian/Ubuntu: sudo apt-get install postgresql) " +
        "or put initdb and pg_ctl on PATH.",
    );
  }
  // Debian's package also makes a "main" cluster (started where services may start); the tests
  // never use it: they start servers of their own.
  info("installing Debian's postgresql");
  await aptInstall(["postgresql"]);
  const bin = await findPostgresBin();
  if (!bin) throw new SetupError("postgresql was installed but initdb and pg_ctl are not to be found");
  return bin;
}
