// Step 2: a Docker engine that answers. Uses the one the user has; as root on Debian, installs
// docker.io and starts dockerd in the background when there is none.

import { spawn } from "node:child_process";
import { mkdir, open, readFile, stat } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { aptInstall, canInstallPackages } from "./apt.mjs";
import { capture, findCommand, run } from "./run.mjs";
import { info, SetupError } from "./steps.mjs";

export const DOCKERD_LOG = "/var/log/coder/dockerd.log";
const START_TIMEOUT_MS = 60_000;
const POLL_MS = 500;

/** Asks the engine for its version: `{ ok: true, version }` or `{ ok: false, reason }`. */
export async function probeEngine(env = process.env) {
  const result = await capture("docker", ["version", "--format", "{{.Server.Version}}"], {
    env,
    timeoutMs: 20_000,
  });
  const version = result.stdout.trim();
  if (result.code === 0 && version !== "") return { ok: true, version };
  if (result.code === 127) return { ok: false, reason: "the docker command is not installed" };
  const reason = `${result.stderr}\n${result.stdout}`
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line !== "");
  return { ok: false, reason: reason ?? "docker version failed" };
}

/** What to tell a user who has no reachable Docker engine and whom the script cannot help. */
export function noDockerMessage(reason, dockerHost = process.env.DOCKER_HOST) {
  return [
    `Docker is not available: ${reason}`,
    ...(dockerHost ? [`(DOCKER_HOST is set to ${dockerHost}; unset it to use the local engine.)`] : []),
    "",
    "coder runs every workspace in a Docker container, so it needs a Docker engine this user can reach:",
    "  • Debian/Ubuntu: sudo apt-get install docker.io && sudo systemctl start docker",
    "    then let your user reach it: sudo usermod -aG docker $USER (and log in again)",
    "  • Other Linux: install Docker Engine (https://docs.docker.com/engine/install/) and start it",
    "  • macOS or Windows: install Docker Desktop and start it",
    "  • A remote engine: set DOCKER_HOST, e.g. DOCKER_HOST=ssh://user@host",
    "Run as root on Debian and this script installs and starts Docker by itself.",
    "Check with: docker info",
  ].join("\n");
}

/** Makes sure a Docker engine answers, installing and starting one when allowed. */
export async function ensureDocker() {
  const engine = await probeEngine();
  if (engine.ok) {
    info(`Docker engine ${engine.version} is running`);
    return;
  }
  // A DOCKER_HOST points somewhere else: starting a local dockerd would not make it answer.
  if (process.env.DOCKER_HOST || !(await canInstallPackages()))
    throw new SetupError(noDockerMessage(engine.reason));
  info(`no Docker engine answers (${engine.reason})`);
  if ((await findCommand("dockerd")) === null || (await findCommand("docker")) === null) {
    info("installing Debian's docker.io");
    await aptInstall(["docker.io"]);
    // The package may have started the engine itself.
    const installed = await probeEngine();
    if (installed.ok) {
      info(`Docker engine ${installed.version} is running`);
      return;
    }
  }
  info(`Docker engine ${await startEngine()} is running`);
}

/** Starts the installed engine: as the systemd service where systemd runs, else dockerd itself. */
async function startEngine() {
  if (!(await isSystemdRunning())) return startDockerd();
  // systemctl returns once dockerd has told systemd it is ready.
  await run("systemctl", ["start", "docker"], { prefix: "systemctl" });
  const engine = await probeEngine();
  if (!engine.ok)
    throw new SetupError(`docker.service started, but ${engine.reason}. See: journalctl -u docker`);
  return engine.version;
}

async function isSystemdRunning() {
  return (await stat("/run/systemd/system").catch(() => null))?.isDirectory() ?? false;
}

/**
 * Starts dockerd detached from this script (it keeps running after the script exits), its output
 * appended to DOCKERD_LOG, and waits until it answers. Returns the engine version.
 */
export async function startDockerd() {
  const dockerd = await findCommand("dockerd");
  if (dockerd === null) throw new SetupError("dockerd is not installed");
  await mkdir("/var/log/coder", { recursive: true });
  const log = await open(DOCKERD_LOG, "a");
  const child = spawn(dockerd, [], { detached: true, stdio: ["ignore", log.fd, log.fd] });
  await log.close();
  child.unref();
  let exited = null;
  child.on("exit", (code, signal) => {
    exited = signal ?? `exit code ${code}`;
  });
  child.on("error", (error) => {
    exited = error.message;
  });
  info(`started dockerd (pid ${child.pid}), log in ${DOCKERD_LOG}`);
  return waitForEngine(() => exited);
}

/** Polls the engine until it answers; fails early when `stoppedReason()` says dockerd exited. */
export async function waitForEngine(stoppedReason = () => null, timeoutMs = START_TIMEOUT_MS) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const engine = await probeEngine();
    if (engine.ok) return engine.version;
    const stopped = stoppedReason();
    if (stopped !== null || performance.now() > deadline) {
      const why =
        stopped !== null
          ? `dockerd stopped (${stopped})`
          : `dockerd did not answer within ${timeoutMs / 1000}s`;
      throw new SetupError(`${why}. Last lines of ${DOCKERD_LOG}:\n${await logTail(DOCKERD_LOG, 12)}`);
    }
    await sleep(POLL_MS);
  }
}

async function logTail(file, lines) {
  const text = await readFile(file, "utf8").catch(() => "");
  return text
    .trimEnd()
    .split("\n")
    .slice(-lines)
    .map((line) => `  ${line}`)
    .join("\n");
}
