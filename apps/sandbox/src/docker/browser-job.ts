import { randomBytes } from "node:crypto";
import { containerLayout } from "@coder/protocol";
import type { ContainerCreateOptions } from "dockerode";
import type { BrowserJobSpec } from "../driver/workspace-driver";
import {
  containerName,
  type HardeningOptions,
  hardenedHostConfig,
  LABEL_INSTANCE,
  LABEL_MANAGED,
} from "./container-spec";
import { LABEL_JOB } from "./volume-job";

/**
 * The create options of a browser job beside workspace `id`. It loads untrusted pages, so it gets
 * the workspace's hardening and limits (no root, no capabilities, no privilege escalation, a
 * read-only root with tmpfs for Chromium's profile) and joins the workspace container's network
 * namespace instead of a network of its own: it sees the workspace's loopback (and its filtered
 * egress, when the workspace has it), never the host's or a bridge. No volume, no host path, no
 * log kept by the engine.
 */
export function browserJobSpec(
  id: string,
  spec: BrowserJobSpec,
  opts: HardeningOptions,
): ContainerCreateOptions {
  const { user } = containerLayout;
  return {
    name: `${containerName(opts.instance, id)}-browser-${randomBytes(3).toString("hex")}`,
    Image: spec.image,
    Cmd: spec.args,
    User: `${user.uid}:${user.uid}`,
    Env: [`HOME=${user.home}`, "LANG=C.UTF-8"],
    Labels: { [LABEL_MANAGED]: "true", [LABEL_INSTANCE]: opts.instance, [LABEL_JOB]: id },
    AttachStdout: true,
    AttachStderr: false,
    Tty: false,
    HostConfig: {
      ...hardenedHostConfig(opts),
      NetworkMode: `container:${containerName(opts.instance, id)}`,
      Mounts: [],
      LogConfig: { Type: "none", Config: {} },
    },
  };
}
