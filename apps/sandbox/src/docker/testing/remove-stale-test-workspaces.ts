import Docker from "dockerode";
import { LABEL_INSTANCE } from "../container-spec";
import { DiskImages } from "../disk-images";
import { removeEgressNetwork } from "../egress/egress-network";

/** Test instances are `t` + 8 hex digits (testing/harness.ts newInstance). */
const TEST_INSTANCE = /^t[0-9a-f]{8}$/;
/** Older than any test run, so a suite running next to this one is left alone. */
const STALE_AFTER_MS = 30 * 60_000;

/**
 * Removes what earlier test runs left behind when they were killed before their cleanup ran
 * (containers, volumes with their disk images and loop devices, egress networks with their firewall
 * rules, of test instances), so leftovers do not pile up on a developer's engine.
 */
export default async function removeStaleTestWorkspaces(): Promise<void> {
  const docker = new Docker();
  const cutoff = (Date.now() - STALE_AFTER_MS) / 1000;
  const containers = await docker.listContainers({ all: true, filters: { label: [LABEL_INSTANCE] } });
  const stale = containers.filter(
    (c) => TEST_INSTANCE.test(c.Labels[LABEL_INSTANCE] ?? "") && c.Created < cutoff,
  );
  await Promise.all(
    stale.map((c) =>
      docker
        .getContainer(c.Id)
        .remove({ force: true })
        .catch(() => undefined),
    ),
  );
  const { Volumes } = await docker.listVolumes({ filters: { label: [LABEL_INSTANCE] } });
  const live = new Set(
    (await docker.listContainers({ all: true, filters: { label: [LABEL_INSTANCE] } })).map(
      (c) => c.Labels[LABEL_INSTANCE],
    ),
  );
  const orphans = (Volumes ?? []).filter(
    (v) => TEST_INSTANCE.test(v.Labels?.[LABEL_INSTANCE] ?? "") && !live.has(v.Labels?.[LABEL_INSTANCE]),
  );
  await Promise.all(
    orphans.map((v) =>
      new DiskImages(docker, {
        instance: v.Labels?.[LABEL_INSTANCE] ?? "",
        toolImage: process.env.CODER_IMAGE,
      })
        .removeVolumes([v.Name])
        .catch(() => undefined),
    ),
  );
  const image = process.env.CODER_IMAGE;
  // Loop devices still holding deleted images of test instances (a swarm node's data root removed, a
  // run killed mid-release): the kernel's loop devices are shared by every engine on this host.
  if (image) await new DiskImages(docker, { instance: "", toolImage: image }).detachDeleted("coder-t");
  const networks = await docker.listNetworks({ filters: { label: [LABEL_INSTANCE] } });
  for (const n of networks) {
    const instance = n.Labels?.[LABEL_INSTANCE] ?? "";
    if (image && TEST_INSTANCE.test(instance) && Date.parse(n.Created ?? "") / 1000 < cutoff) {
      await removeEgressNetwork(docker, instance, image).catch(() => undefined);
    }
  }
}
