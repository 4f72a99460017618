// npm start: prepares the machine, then runs the web UI (Next) and the sandbox service until
// Ctrl-C. Plain Node with no dependencies: it runs before node_modules exists.
import { createRequire } from "node:module";
import { SANDBOX_BUNDLE } from "./lib/bundle.mjs";
import { repoPath, repoRoot } from "./lib/paths.mjs";
import { prepare } from "./lib/prepare.mjs";
import { runScript } from "./lib/steps.mjs";
import { supervise } from "./lib/supervise.mjs";

runScript(async () => {
  await prepare();
  const webDir = repoPath("apps/web");
  const webPort = process.env.CODER_WEB_PORT ?? "7071";
  const next = createRequire(repoPath("apps/web/package.json")).resolve("next/dist/bin/next");
  const sandboxEnv = {
    ...process.env,
    CODER_PORT: process.env.CODER_PORT ?? "7070",
    CODER_HOST: process.env.CODER_HOST ?? "127.0.0.1",
    CODER_DATA_DIR: process.env.CODER_DATA_DIR ?? repoPath(".data"),
    CODER_WEB_UPSTREAM: `http://127.0.0.1:${webPort}`,
    CODER_RUNTIME: process.env.CODER_RUNTIME ?? "runc",
  };
  console.log("▸ Running (Ctrl-C stops both)");
  return supervise([
    {
      name: "web",
      command: process.execPath,
      args: [next, "start", "-H", "127.0.0.1", "-p", webPort],
      cwd: webDir,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    },
    {
      name: "sandbox",
      command: process.execPath,
      args: ["--enable-source-maps", SANDBOX_BUNDLE],
      cwd: repoRoot,
      env: sandboxEnv,
    },
  ]);
});
