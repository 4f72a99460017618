import { createHash } from "node:crypto";
import { containerSpec, type HardeningOptions } from "./container-spec";

/**
 * What a workspace made now from `image` is made of, hashed: the container spec without what names
 * one workspace (its name, labels and volume names), plus the disk sizes. A spare made under another
 * fingerprint (an older image, other limits) would differ from a cold workspace, so it is retired.
 */
export function specFingerprint(image: string, opts: HardeningOptions): string {
  const {
    name: _name,
    Labels: _labels,
    HostConfig,
    ...rest
  } = containerSpec({ id: "spare", image, egress: false }, opts);
  const { Mounts, ...host } = HostConfig ?? {};
  const made = {
    ...rest,
    HostConfig: host,
    mounts: Mounts?.map((m) => m.Target),
    disk: opts.disk ? { workspaceMb: opts.disk.workspaceMb, stateMb: opts.disk.stateMb } : null,
  };
  return createHash("sha256").update(JSON.stringify(made)).digest("hex").slice(0, 16);
}
