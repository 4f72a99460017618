// The house's import rules, checked by `npm run check` and `npm test` (dependency-cruiser).

/**
 * The floors of the sandbox service, top to bottom (docs/architecture.md, "Layers"): a file may
 * import its own floor and the floors below it, never one above. Folders on one floor do not
 * import each other in a loop (the no-circular rule sees to that).
 */
const SANDBOX = "^apps/sandbox/src/";
const FLOORS = [
  ["entry points", ["main\\.ts$", "token-cli\\.ts$", "testing/"]],
  ["wiring", ["service\\.ts$"]],
  ["the edge", ["http/"]],
  ["procedures", ["trpc/"]],
  ["features", ["collab/", "files/", "git/", "talk/"]],
  ["the agent", ["agent/"]],
  ["presence", ["presence/"]],
  ["workspaces", ["workspaces/"]],
  ["channels", ["lsp/", "terminal/"]],
  ["workspace access", ["imports/", "daemon/", "create-driver\\.ts$"]],
  ["the Docker driver", ["docker/"]],
  ["people", ["sockets/", "auth/", "cluster/", "audit/", "git-credentials/"]],
  ["storage and configuration", ["db/", "config\\.ts$", "config/"]],
  ["ground", ["errors/", "container-streams/", "driver/", "net/", "events/", "event-loop/"]],
].map(([name, paths]) => [name, paths.map((p) => `${SANDBOX}${p}`)]);

/** Tests and their support files may reach the harness above them. */
const TEST_CODE = ["\\.test\\.ts$", "/testing/"];

const floorRules = FLOORS.slice(1).map(([name, paths], index) => ({
  name: `floor-${name.replaceAll(" ", "-")}`,
  severity: "error",
  comment: `${name} imports nothing from a floor above it`,
  from: { path: paths, pathNot: TEST_CODE },
  to: { path: FLOORS.slice(0, index + 1).flatMap(([, above]) => above) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Files that import each other in a loop cannot be read, tested or moved one at a time.",
      from: {},
      to: { circular: true },
    },
    ...floorRules,
    {
      name: "dockerode-only-in-the-docker-driver",
      severity: "error",
      comment:
        "Only the Docker-engine drivers (docker/, and swarm/ which runs its tasks on engines too) speak to the engine, so another driver is one new folder (benches compare against raw engine calls on purpose).",
      from: {
        path: ["^apps/sandbox/src/", "^apps/web/src/", "^packages/", "^e2e/"],
        pathNot: [`${SANDBOX}docker/`, `${SANDBOX}swarm/`],
      },
      to: { path: "(^|/)node_modules/(@types/)?dockerode/" },
    },
    {
      name: "the-docker-driver-only-where-it-is-chosen",
      severity: "error",
      comment:
        "The service reaches the Docker driver's modules only where the configured driver is chosen; the Swarm driver builds on its container pieces (a task is a container on a node's engine).",
      from: {
        path: SANDBOX,
        pathNot: [`${SANDBOX}docker/`, `${SANDBOX}swarm/`, `${SANDBOX}create-driver\\.ts$`, ...TEST_CODE],
      },
      to: { path: `${SANDBOX}docker/` },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["(^|/)dist/", "(^|/)\\.next/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mjs", ".js", ".d.ts", ".d.mts"],
    },
  },
};
