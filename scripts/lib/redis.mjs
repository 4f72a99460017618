// Tests only: Debian's Redis server (redis-server), which the test set-up starts on loopback for
// service instances that share live documents. Nothing is started here.
import { aptInstall, canInstallPackages } from "./apt.mjs";
import { findCommand } from "./run.mjs";
import { info, SetupError } from "./steps.mjs";

/** Finds (or, as root on Debian, installs) redis-server; returns its path. */
export async function ensureRedis() {
  const found = await findCommand("redis-server");
  if (found) {
    info(`using ${found}`);
    return found;
  }
  if (!(await canInstallPackages())) {
    throw new SetupError(
      "The tests of several service instances need a Redis server. Install it (Debian/Ubuntu: " +
        "sudo apt-get install redis-server) or put redis-server on PATH.",
    );
  }
  // Debian's package also starts a server on port 6379 where services may start; the tests never
  // use it: they start servers of their own.
  info("installing Debian's redis-server");
  await aptInstall(["redis-server"]);
  const installed = await findCommand("redis-server");
  if (!installed) throw new SetupError("redis-server was installed but is not to be found");
  return installed;
}
