// CODER_RUNTIME=runsc: gVisor's runsc registered with the Docker engine as a runtime.

import { mkdir, readFile, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { isDeepStrictEqual } from "node:util";
import { aptInstall, isRoot } from "./apt.mjs";
import { capture, findCommand } from "./run.mjs";
import { info, SetupError } from "./steps.mjs";

const DAEMON_JSON = "/etc/docker/daemon.json";
const DOCKERD_PIDFILE = "/var/run/docker.pid";
const RELOAD_TIMEOUT_MS = 30_000;

// Workspaces have no network by default; gVisor's own network stack stays off too.
export const RUNSC_RUNTIME = { path: "/usr/bin/runsc", runtimeArgs: ["--network=none"] };

/**
 * The text of daemon.json with the runsc runtime merged in, keeping every other setting, or null
 * when the file already registers it exactly so.
 */
export function withRunscRuntime(daemonJson) {
  let config;
  try {
    config = daemonJson.trim() === "" ? {} : JSON.parse(daemonJson);
  } catch (error) {
    throw new SetupError(`${DAEMON_JSON} is not valid JSON (${error.message}); fix it and try again.`);
  }
  if (isDeepStrictEqual(config.runtimes?.runsc, RUNSC_RUNTIME)) return null;
  const merged = { ...config, runtimes: { ...config.runtimes, runsc: RUNSC_RUNTIME } };
  return `${JSON.stringify(merged, null, 2)}\n`;
}

async function engineRuntimes() {
  const result = await capture("docker", ["info", "--format", "{{json .Runtimes}}"]);
  try {
    return Object.keys(JSON.parse(result.stdout));
  } catch {
    return [];
  }
}

/** Registers runsc with the local engine (as root), installing Debian's runsc when missing. */
export async function ensureRunsc() {
  if ((await engineRuntimes()).includes("runsc")) {
    info("the engine has the runsc runtime");
    return;
  }
  if (!isRoot()) {
    throw new SetupError(
      [
        "CODER_RUNTIME=runsc, but the Docker engine has no runsc runtime.",
        "Install gVisor (Debian: apt-get install runsc) and add to /etc/docker/daemon.json:",
        `  {"runtimes": {"runsc": ${JSON.stringify(RUNSC_RUNTIME)}}}`,
        "then reload the engine (sudo systemctl reload docker), or unset CODER_RUNTIME to use runc.",
      ].join("\n"),
    );
  }
  if ((await findCommand("runsc")) === null) {
    info("installing Debian's runsc (gVisor)");
    await aptInstall(["runsc"]);
  }
  const current = await readFile(DAEMON_JSON, "utf8").catch((error) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  const updated = withRunscRuntime(current);
  if (updated !== null) {
    await mkdir("/etc/docker", { recursive: true });
    await writeFile(DAEMON_JSON, updated);
    info(`registered runsc in ${DAEMON_JSON}`);
  }
  await reloadEngine();
}

/**
 * Makes the running dockerd read daemon.json again. SIGHUP reloads the runtimes without a
 * restart, so running workspace containers are not touched.
 */
async function reloadEngine() {
  const pid = Number((await readFile(DOCKERD_PIDFILE, "utf8").catch(() => "")).trim());
  if (!Number.isInteger(pid) || pid <= 0) {
    throw new SetupError(`no dockerd pid in ${DOCKERD_PIDFILE}: reload the Docker engine yourself.`);
  }
  process.kill(pid, "SIGHUP");
  info(`asked dockerd (pid ${pid}) to reload its configuration`);
  const deadline = performance.now() + RELOAD_TIMEOUT_MS;
  while (!(await engineRuntimes()).includes("runsc")) {
    if (performance.now() > deadline) {
      throw new SetupError(`dockerd did not load the runsc runtime from ${DAEMON_JSON}; see its log.`);
    }
    await sleep(500);
  }
}
