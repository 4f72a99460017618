import path from "node:path";
import type Docker from "dockerode";
import type { Config } from "../config";
import type { HardeningOptions } from "./container-spec";
import { DockerDriver } from "./docker-driver";

/**
 * The Docker driver the configuration asks for, on the engine `DOCKER_HOST` (or the local socket)
 * points to, or on `docker` when given (a test's engine in between).
 */
export function dockerDriverOfConfig(
  config: Config,
  hardening: HardeningOptions,
  docker?: Docker,
): DockerDriver {
  return new DockerDriver(
    {
      ...hardening,
      egress: { helperImage: config.image, allow: config.egressAllow },
      // The workspace image runs the disk jobs too: it is on the engine whenever workspaces are.
      disk: { ...config.disk, toolImage: config.image },
      // Either relay needs the engine on this host (DOCKER_HOST unset or a unix socket): the
      // workspace's process, or the relay's socket folder, is then this host's.
      ...(localEngine() ? { previewRelay: previewRelayOf(config) } : {}),
    },
    docker,
  );
}

function previewRelayOf(config: Config): { namespace: true } | { tunnelDir: string } {
  return config.previewRelay === "namespace"
    ? { namespace: true }
    : { tunnelDir: path.join(config.tunnelDir, config.instance) };
}

function localEngine(): boolean {
  const host = process.env.DOCKER_HOST;
  return !host || host.startsWith("unix://");
}
