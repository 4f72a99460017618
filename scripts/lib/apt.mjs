// Installing Debian packages, which the scripts do only as root on a Debian machine.
import { findCommand, run } from "./run.mjs";

/** True when this process may install packages and start daemons (root). */
export function isRoot() {
  return process.getuid?.() === 0;
}

/** True when the scripts may install Debian packages: root with apt-get. */
export async function canInstallPackages() {
  return isRoot() && (await findCommand("apt-get")) !== null;
}

// apt-get update runs at most once per script run, right before the first install.
let updated = false;

const APT_ENV = { ...process.env, DEBIAN_FRONTEND: "noninteractive", NEEDRESTART_MODE: "l" };
// Waits for another apt/dpkg run (unattended upgrades, a second script) instead of failing.
const LOCK_WAIT = ["-o", "DPkg::Lock::Timeout=300"];

/** Installs Debian packages with apt-get, output streamed behind an "apt" prefix. */
export async function aptInstall(packages) {
  if (!updated) {
    await run("apt-get", [...LOCK_WAIT, "update"], { env: APT_ENV, prefix: "apt" });
    updated = true;
  }
  await run("apt-get", [...LOCK_WAIT, "install", "-y", ...packages], { env: APT_ENV, prefix: "apt" });
}
