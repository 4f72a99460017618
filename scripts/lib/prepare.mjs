// The preparation steps of `npm start`, `npm test` and scripts/image.mjs, in order; each is
// quick when its work is already done.
import { ensureBaseImage } from "./base-image.mjs";
import { ensureBrowserImage } from "./browser-image.mjs";
import { bundleSandbox } from "./bundle.mjs";
import { ensureChromium } from "./chromium.mjs";
import { ensureCompose } from "./compose.mjs";
import { ensureDocker } from "./docker-engine.mjs";
import { ensureNodeModules } from "./node-modules.mjs";
import { ensurePostgres } from "./postgres.mjs";
import { ensureRedis } from "./redis.mjs";
import { ensureRunsc } from "./runsc.mjs";
import { step } from "./steps.mjs";
import { ensureWebBuild } from "./web-build.mjs";
import { ensureWorkspaceImage } from "./workspace-image.mjs";

/**
 * Node packages, the Docker engine, the workspace image and the browser image (the agent's
 * `preview` tool); returns the workspace image's tag.
 */
export async function prepareWorkspaceImage() {
  await step("Node packages", () => ensureNodeModules());
  await step("Docker engine", () => ensureDocker());
  if (process.env.CODER_RUNTIME === "runsc") await step("gVisor runtime", () => ensureRunsc());
  const baseImage = await step("Base image", () => ensureBaseImage());
  const tag = await step("Workspace image", () => ensureWorkspaceImage(baseImage));
  await step("Browser image", () => ensureBrowserImage(baseImage));
  return tag;
}

/**
 * Everything `npm start` needs; `forTests` adds Chromium, Compose, PostgreSQL and Redis. Leaves CODER_IMAGE, CODER_BROWSER_IMAGE (and
 * CHROMIUM_PATH for tests) in process.env for the processes started next.
 */
export async function prepare({ forTests = false } = {}) {
  await prepareWorkspaceImage();
  if (forTests) {
    await step("Chromium", () => ensureChromium());
    await step("Docker Compose", () => ensureCompose());
    await step("PostgreSQL", () => ensurePostgres());
    await step("Redis", () => ensureRedis());
  }
  await step("Web UI build", () => ensureWebBuild());
  await step("Sandbox service bundle", () => bundleSandbox());
}
