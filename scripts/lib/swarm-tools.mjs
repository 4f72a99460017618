// Tests only: the programs the test swarm (apps/sandbox/src/swarm/testing/test-swarm.ts) needs to
// put Docker engines into network namespaces of their own: `ip` (iproute2) and `nsenter` (util-linux).
import { aptInstall, canInstallPackages } from "./apt.mjs";
import { findCommand } from "./run.mjs";
import { info, SetupError } from "./steps.mjs";

async function missing() {
  const found = await Promise.all(["ip", "nsenter"].map((name) => findCommand(name)));
  return found.some((path) => path === null);
}

/** Finds (or, as root on Debian, installs) iproute2 and util-linux's nsenter. */
export async function ensureSwarmTools() {
  if (!(await missing())) return;
  if (!(await canInstallPackages())) {
    throw new SetupError(
      "The swarm tests need `ip` and `nsenter`. Install them (Debian/Ubuntu: sudo apt-get install iproute2 util-linux).",
    );
  }
  info("installing Debian's iproute2 and util-linux");
  await aptInstall(["iproute2", "util-linux"]);
  if (await missing())
    throw new SetupError("iproute2 and util-linux were installed but `ip` or `nsenter` is missing");
}
