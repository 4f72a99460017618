// Builds the workspace image (tagged coder-workspace:<hash> and coder-workspace:latest) and the
// browser image of the agent's `preview` tool (coder-browser:<hash> and coder-browser:latest), and
// prints the workspace image's tag: what a docker-compose deployment needs on the Docker host
// before `docker compose up`.
import { prepareWorkspaceImage } from "./lib/prepare.mjs";
import { runScript } from "./lib/steps.mjs";

runScript(async () => {
  console.log(await prepareWorkspaceImage());
});
