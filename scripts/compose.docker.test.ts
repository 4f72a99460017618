import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { findCompose } from "./lib/compose.mjs";
import { repoRoot } from "./lib/paths.mjs";

const exec = promisify(execFile);

type Mount = { type?: string; source?: string; target?: string };
type Port = { target?: number | string; published?: number | string; host_ip?: string };
type Service = {
  volumes?: (string | Mount)[];
  ports?: (string | Port)[];
  environment?: Record<string, string>;
};
type Config = { services: Record<string, Service>; volumes?: Record<string, unknown> };

// docker-compose 1.x prints the short syntax ("src:target:mode"), Compose 2 the long one.
function mountsOf(service: Service): Mount[] {
  return (service.volumes ?? []).map((volume) => {
    if (typeof volume !== "string") return volume;
    const [source = "", target] = volume.split(":");
    return { type: source.startsWith("/") || source.startsWith(".") ? "bind" : "volume", source, target };
  });
}

function portsOf(service: Service): Port[] {
  return (service.ports ?? []).map((port) => {
    if (typeof port !== "string") return port;
    const parts = port.replace(/\/\w+$/, "").split(":");
    const target = parts.pop();
    const published = parts.pop();
    return { target, published, host_ip: parts.pop() };
  });
}

let config: Config;

beforeAll(async () => {
  const compose = await findCompose();
  if (compose === null) throw new Error("no docker-compose or docker compose: run the tests with npm test");
  const [command = "", ...args] = compose;
  // The defaults, whatever this shell exports.
  const env = {
    ...process.env,
    CODER_BIND: "",
    CODER_PORT: "",
    CODER_IMAGE: "",
    NODE_IMAGE: "",
    CODER_TUNNEL_DIR: "",
  };
  const { stdout } = await exec(command, [...args, "config"], { cwd: repoRoot, env });
  config = parse(stdout) as Config;
});

describe("docker-compose.yml", () => {
  it("has the web UI and the sandbox service, both built from the repository", () => {
    expect(Object.keys(config.services).sort()).toEqual(["sandbox", "web"]);
  });

  it("mounts the Docker socket into the sandbox service only", () => {
    const withSocket = Object.entries(config.services)
      .filter(([, service]) => mountsOf(service).some((mount) => mount.source === "/var/run/docker.sock"))
      .map(([name]) => name);
    expect(withSocket).toEqual(["sandbox"]);
  });

  it("keeps the sandbox's data directory in a named volume", () => {
    const sandbox = config.services.sandbox ?? {};
    const dataDir = sandbox.environment?.CODER_DATA_DIR;
    const mount = mountsOf(sandbox).find((candidate) => candidate.target === dataDir);
    expect(mount?.type).toBe("volume");
    expect(Object.keys(config.volumes ?? {})).toContain(mount?.source);
  });

  it("reaches previews through relay containers, whose socket folder it binds from the host at the same path", () => {
    const sandbox = config.services.sandbox ?? {};
    // A service in a container cannot enter a workspace's network namespace: relay containers.
    expect(sandbox.environment?.CODER_PREVIEW_RELAY).toBe("container");
    const tunnelDir = sandbox.environment?.CODER_TUNNEL_DIR ?? "";
    expect(tunnelDir).toMatch(/^\//);
    expect(tunnelDir.startsWith(`${sandbox.environment?.CODER_DATA_DIR}/`)).toBe(false);
    const mount = mountsOf(sandbox).find((candidate) => candidate.target === tunnelDir);
    expect(mount).toMatchObject({ type: "bind", source: tunnelDir });
  });

  it("never publishes the web UI, which the sandbox service proxies", () => {
    expect(portsOf(config.services.web ?? {})).toEqual([]);
    expect(config.services.sandbox?.environment?.CODER_WEB_UPSTREAM).toBe("http://web:3000");
  });

  it("publishes the sandbox service on localhost by default", () => {
    const [port] = portsOf(config.services.sandbox ?? {});
    expect(String(port?.target)).toBe("7070");
    expect(port?.host_ip).toBe("127.0.0.1");
  });
});
