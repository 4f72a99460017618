// Step 4: the Debian bookworm image the workspace image builds FROM. No registry needed: as root
// on Debian it is made with debootstrap from the machine's own Debian mirror and imported.
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { aptInstall, canInstallPackages } from "./apt.mjs";
import { imageId } from "./docker-images.mjs";
import { CommandError, findCommand, run } from "./run.mjs";
import { info, SetupError } from "./steps.mjs";

export const LOCAL_BASE_IMAGE = "coder-base:bookworm";
const REGISTRY_BASE_IMAGE = "debian:bookworm-slim";
const DEFAULT_MIRROR = "http://deb.debian.org/debian";
const SUITE = "bookworm";

/** The image to build the workspace image FROM: BASE_IMAGE, a local import, or a pulled one. */
export async function ensureBaseImage() {
  if (process.env.BASE_IMAGE) {
    info(`BASE_IMAGE=${process.env.BASE_IMAGE}`);
    return process.env.BASE_IMAGE;
  }
  if ((await imageId(LOCAL_BASE_IMAGE)) !== null) {
    info(`reusing ${LOCAL_BASE_IMAGE}`);
    return LOCAL_BASE_IMAGE;
  }
  if (await canInstallPackages()) {
    await debootstrapImage(LOCAL_BASE_IMAGE);
    return LOCAL_BASE_IMAGE;
  }
  if ((await imageId(REGISTRY_BASE_IMAGE)) === null) {
    info(`pulling ${REGISTRY_BASE_IMAGE}`);
    await run("docker", ["pull", REGISTRY_BASE_IMAGE], { prefix: "pull" }).catch((error) => {
      throw new SetupError(
        `${error.message}\nSet BASE_IMAGE to a local Debian bookworm image, or run as root on Debian ` +
          `to build ${LOCAL_BASE_IMAGE} with debootstrap.`,
      );
    });
  }
  return REGISTRY_BASE_IMAGE;
}

/**
 * The Debian mirror for bookworm named in apt sources (one-line `.list` or deb822 `.sources`
 * texts), or Debian's default mirror.
 */
export function aptMirror(sourceTexts) {
  for (const text of sourceTexts) {
    for (const entry of parseSources(text)) {
      if (entry.types.includes("deb") && entry.suites.includes(SUITE)) {
        const uri = entry.uris.find((candidate) => /^https?:\/\//.test(candidate));
        if (uri !== undefined) return uri.replace(/\/+$/, "");
      }
    }
  }
  return DEFAULT_MIRROR;
}

function parseSources(text) {
  const entries = [];
  const lines = text.split("\n").map((line) => line.replace(/#.*/, "").trim());
  for (const line of lines) {
    const oneLine = /^(deb|deb-src)\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)/.exec(line);
    if (oneLine) entries.push({ types: [oneLine[1]], uris: [oneLine[2]], suites: [oneLine[3]] });
  }
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map();
    for (const line of stanza.split("\n")) {
      const field = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
      if (field?.[1] && field[2] !== undefined)
        fields.set(field[1].toLowerCase(), field[2].trim().split(/\s+/));
    }
    if (fields.get("enabled")?.[0] === "no" || !fields.has("uris")) continue;
    entries.push({
      types: fields.get("types") ?? [],
      uris: fields.get("uris") ?? [],
      suites: fields.get("suites") ?? [],
    });
  }
  return entries;
}

async function readAptSources() {
  const files = ["/etc/apt/sources.list"];
  const dir = "/etc/apt/sources.list.d";
  for (const name of (await readdir(dir).catch(() => [])).sort()) {
    if (name.endsWith(".list") || name.endsWith(".sources")) files.push(path.join(dir, name));
  }
  return Promise.all(files.map((file) => readFile(file, "utf8").catch(() => "")));
}

/** debootstraps a minimal bookworm into a temporary folder and imports it as `tag` (as root). */
export async function debootstrapImage(tag) {
  if ((await findCommand("debootstrap")) === null) {
    info("installing debootstrap");
    await aptInstall(["debootstrap"]);
  }
  const mirror = aptMirror(await readAptSources());
  const dir = await mkdtemp(path.join(os.tmpdir(), "coder-base-"));
  try {
    info(`debootstrap --variant=minbase ${SUITE} from ${mirror} (a few minutes)`);
    await run("debootstrap", ["--variant=minbase", SUITE, dir, mirror], { prefix: "debootstrap" });
    await dropAptCaches(dir);
    info(`importing ${dir} as ${tag}`);
    await importFolder(dir, tag);
  } finally {
    await removeUnlessMounted(dir);
  }
}

// Downloaded packages and indexes only make the image bigger; images run apt-get update first.
async function dropAptCaches(root) {
  for (const dir of ["var/cache/apt/archives", "var/lib/apt/lists"]) {
    const full = path.join(root, dir);
    for (const entry of await readdir(full, { withFileTypes: true }).catch(() => [])) {
      if (entry.isFile() && entry.name !== "lock") await rm(path.join(full, entry.name));
    }
  }
  await rm(path.join(root, "var/cache/apt/pkgcache.bin"), { force: true });
  await rm(path.join(root, "var/cache/apt/srcpkgcache.bin"), { force: true });
}

async function importFolder(dir, tag) {
  const tar = spawn("tar", ["-C", dir, "--numeric-owner", "-c", "."], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const tarExit = new Promise((resolve) => tar.on("exit", (code) => resolve(code)));
  const imported = run(
    "docker",
    ["import", "--change", "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "-", tag],
    { stdin: tar.stdout, prefix: "import" },
  );
  // docker import reads the pipe now; this script's end would keep tar blocked if import failed.
  tar.stdout.destroy();
  await imported;
  const tarCode = await tarExit;
  if (tarCode !== 0) throw new CommandError(`tar of ${dir} failed (exit code ${tarCode})`, tarCode ?? 1);
}

// A debootstrap that was killed can leave /proc or /dev mounted inside its folder: never delete
// through a mount.
async function removeUnlessMounted(dir) {
  const mounts = await readFile("/proc/self/mountinfo", "utf8").catch(() => "");
  const mounted = mounts.split("\n").some((line) => line.split(" ")[4]?.startsWith(`${dir}/`));
  if (mounted) info(`left ${dir} in place: something is still mounted inside it`);
  else await rm(dir, { recursive: true, force: true });
}
