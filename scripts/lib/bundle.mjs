// esbuild bundles: the daemon that runs inside workspace containers, and the sandbox service.
import { readFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import path from "node:path";
import { repoPath } from "./paths.mjs";

export const DAEMON_ENTRY = repoPath("packages/daemon/src/main.ts");
export const SANDBOX_ENTRY = repoPath("apps/sandbox/src/main.ts");
export const SANDBOX_BUNDLE = repoPath("apps/sandbox/dist/main.mjs");
// Worker threads of the service, each bundled beside it as `<name>.mjs`, where its code finds them.
export const SANDBOX_WORKERS = [repoPath("apps/sandbox/src/collab/text-diff-worker.ts")];

// Tool descriptions, built-in skills and the scripts the service runs in job containers
// (apps/sandbox/src/imports/*.py) are imported as strings.
const TEXT_LOADERS = { ".txt": "text", ".md": "text", ".py": "text" };

// Bundled CommonJS modules call require(); an ES module has none until it is made here.
const REQUIRE_BANNER =
  'import { createRequire as __coderCreateRequire } from "node:module";\n' +
  "const require = __coderCreateRequire(import.meta.url);";

// Leaves every npm package to node_modules at run time, except the workspace's own @coder/*
// packages, which are TypeScript sources and must be compiled in.
const externalExceptWorkspacePackages = {
  name: "external-except-workspace-packages",
  setup(build) {
    const again = Symbol("resolving through esbuild");
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith("@coder/") || args.pluginData === again) return undefined;
      const { name, subpath } = splitSpecifier(args.path);
      if (subpath === "" || isBuiltin(args.path)) return { path: args.path, external: true };
      // Node resolves a deep import of a package without an "exports" map file by file, with
      // the extension ("vscode-jsonrpc/node" must become "vscode-jsonrpc/node.js").
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: again,
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      const marker = `${path.sep}node_modules${path.sep}${name}${path.sep}`;
      const at = resolved.path.lastIndexOf(marker);
      if (at === -1) return { path: args.path, external: true };
      const packageDir = resolved.path.slice(0, at + marker.length - 1);
      const manifest = JSON.parse(await readFile(path.join(packageDir, "package.json"), "utf8"));
      if (manifest.exports !== undefined) return { path: args.path, external: true };
      const file = path.relative(packageDir, resolved.path).split(path.sep).join("/");
      return { path: `${name}/${file}`, external: true };
    });
  },
};

/** "@scope/pkg/a/b" → { name: "@scope/pkg", subpath: "a/b" }; "pkg" → { name: "pkg", subpath: "" }. */
function splitSpecifier(specifier) {
  const parts = specifier.split("/");
  const nameLength = specifier.startsWith("@") ? 2 : 1;
  return { name: parts.slice(0, nameLength).join("/"), subpath: parts.slice(nameLength).join("/") };
}

async function bundle(options) {
  // Imported here, not at the top: the setup scripts load this file before node_modules exists.
  const { build } = await import("esbuild");
  await build({
    bundle: true,
    platform: "node",
    format: "esm",
    loader: TEXT_LOADERS,
    banner: { js: REQUIRE_BANNER },
    logLevel: "warning",
    ...options,
  });
}

/**
 * The daemon as one self-contained ES module with every dependency inside, for Debian's
 * Node 18 in the workspace image (which has no node_modules).
 */
export async function bundleDaemon({ entry = DAEMON_ENTRY, outfile }) {
  await bundle({ entryPoints: [entry], outfile, target: "node18" });
}

/** The sandbox service for Node 20; npm packages stay in node_modules. */
export async function bundleSandbox({
  entry = SANDBOX_ENTRY,
  outfile = SANDBOX_BUNDLE,
  workers = SANDBOX_WORKERS,
} = {}) {
  const options = { target: "node20", sourcemap: "linked", plugins: [externalExceptWorkspacePackages] };
  await bundle({ ...options, entryPoints: [entry], outfile });
  for (const worker of workers) {
    const name = path.basename(worker, path.extname(worker));
    await bundle({
      ...options,
      entryPoints: [worker],
      outfile: path.join(path.dirname(outfile), `${name}.mjs`),
    });
  }
}
