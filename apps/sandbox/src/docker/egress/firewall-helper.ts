import type Docker from "dockerode";
import { LABEL_INSTANCE, LABEL_MANAGED } from "../container-spec";
import { runJobContainer } from "../job-container";

export const LABEL_ROLE = "dev.coder.role";
const HELPER_TIMEOUT_MS = 30_000;
/** The probe prints a few lines per egress network on the engine; far below this. */
const HELPER_OUTPUT_LIMIT = 1 << 20;

/**
 * Runs a script as root on the network namespace of the engine's host with NET_ADMIN (and NET_RAW,
 * which iptables-legacy needs), under runc whatever the workspaces use, and returns what it printed.
 * Through the Docker API alone: the service needs no root on the host.
 */
export async function runFirewallHelper(
  docker: Docker,
  instance: string,
  helperImage: string,
  script: string,
): Promise<string> {
  const { statusCode: code, output } = await runJobContainer(
    docker,
    {
      Image: helperImage,
      Cmd: ["sh", "-c", script],
      User: "0:0",
      Labels: { [LABEL_MANAGED]: "true", [LABEL_INSTANCE]: instance, [LABEL_ROLE]: "egress-firewall" },
      HostConfig: {
        NetworkMode: "host",
        Runtime: "runc",
        CapDrop: ["ALL"],
        CapAdd: ["NET_ADMIN", "NET_RAW"],
        SecurityOpt: ["no-new-privileges:true"],
        ReadonlyRootfs: true,
        Tmpfs: { "/run": "rw,nosuid,nodev,size=1m", "/tmp": "rw,nosuid,nodev,size=1m" },
        LogConfig: { Type: "none", Config: {} },
      },
    },
    { outputLimit: HELPER_OUTPUT_LIMIT, timeoutMs: HELPER_TIMEOUT_MS },
  );
  if (code !== 0) throw new Error(`the firewall helper failed (exit ${code}): ${output.trim().slice(-2000)}`);
  return output;
}
