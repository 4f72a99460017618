// Step 3 (tests only): a Chromium for the end-to-end tests, announced to them in CHROMIUM_PATH.
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { aptInstall, canInstallPackages } from "./apt.mjs";
import { info, SetupError } from "./steps.mjs";

const DEBIAN_CHROMIUM = "/usr/bin/chromium";

async function isExecutable(file) {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** Finds (or, as root on Debian, installs) Chromium and sets CHROMIUM_PATH. Returns the path. */
export async function ensureChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!(await isExecutable(configured)))
      throw new SetupError(`CHROMIUM_PATH=${configured} is not an executable`);
    info(`CHROMIUM_PATH=${configured}`);
    return configured;
  }
  if (!(await isExecutable(DEBIAN_CHROMIUM))) {
    if (!(await canInstallPackages())) {
      throw new SetupError(
        "The browser tests need Chromium. Install it (Debian/Ubuntu: sudo apt-get install chromium) " +
          "or point CHROMIUM_PATH at a Chromium or Chrome executable.",
      );
    }
    info("installing Debian's chromium");
    await aptInstall(["chromium"]);
  }
  info(`using ${DEBIAN_CHROMIUM}`);
  process.env.CHROMIUM_PATH = DEBIAN_CHROMIUM;
  return DEBIAN_CHROMIUM;
}
