// For the tests: a Compose implementation to validate docker-compose.yml with.
import { aptInstall, canInstallPackages } from "./apt.mjs";
import { capture } from "./run.mjs";
import { info, SetupError } from "./steps.mjs";

/** The Compose command line that answers: ["docker-compose"], ["docker", "compose"] or null. */
export async function findCompose() {
  for (const command of [["docker-compose"], ["docker", "compose"]]) {
    const [cmd = "", ...args] = command;
    if ((await capture(cmd, [...args, "version"])).code === 0) return command;
  }
  return null;
}

/** Makes sure Compose is available, installing Debian's docker-compose as root when missing. */
export async function ensureCompose() {
  let compose = await findCompose();
  if (compose === null) {
    if (!(await canInstallPackages())) {
      throw new SetupError(
        "The tests validate docker-compose.yml with Compose: install the Docker Compose plugin " +
          "(docker compose) or docker-compose (Debian: sudo apt-get install docker-compose).",
      );
    }
    info("installing Debian's docker-compose");
    await aptInstall(["docker-compose"]);
    compose = await findCompose();
    if (compose === null) throw new SetupError("docker-compose was installed but does not run");
  }
  info(`using ${compose.join(" ")}`);
  return compose;
}
