// Tests only: the programs the test swarm (apps/sandbox/src/swarm/testing/test-swarm.ts) needs to
// put Docker engines into network namespaces of their own: `ip` (iproute2) and `nsenter` (util-linux);
// and `openssl`, for the cluster's test certificates (TLS between the nodes).
import { aptInstall, canInstallPackages } from "./apt.mjs";
import { findCommand } from "./run.mjs";
import { info, SetupError } from "./steps.mjs";

async function missing() {
  const found = await Promise.all(["ip", "nsenter", "openssl"].map((name) => findCommand(name)));
  return found.some((path) => path === null);
}

/** Finds (or, as root on Debian, installs) iproute2, util-linux's nsenter and openssl. */
export async function ensureSwarmTools() {
  if (!(await missing())) return;
  if (!(await canInstallPackages())) {
    throw new SetupError(
      "The swarm tests need `ip`, `nsenter` and `openssl`. Install them (Debian/Ubuntu: sudo apt-get install iproute2 util-linux openssl).",
    );
  }
  info("installing Debian's iproute2, util-linux and openssl");
  await aptInstall(["iproute2", "util-linux", "openssl"]);
  if (await missing())
    throw new SetupError(
      "iproute2, util-linux and openssl were installed but `ip`, `nsenter` or `openssl` is missing",
    );
}
