import { execFileSync, spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { imageId, removeOlderImages } from "./docker-images.mjs";

const NAME = "coder-prune-test";
const docker = (...args: string[]) => execFileSync("docker", args, { encoding: "utf8" }).trim();

describe("removing older workspace images", () => {
  // Three distinct images (a label makes each its own), one of them still used by a container.
  const base = process.env.CODER_IMAGE ?? "coder-workspace:latest";
  const refs = ["aaaaaaaaaaa1", "aaaaaaaaaaa2", "aaaaaaaaaaa3"].map((hash) => `${NAME}:${hash}`);
  for (const ref of refs) {
    execFileSync("docker", ["build", "-q", "-t", ref, "--label", `t=${ref}`, "-"], {
      input: `FROM ${base}\n`,
      env: { ...process.env, DOCKER_BUILDKIT: "0" },
    });
  }
  docker("tag", base, `${NAME}:manual`);
  const user = docker("create", refs[1] as string, "true");

  afterAll(() => {
    docker("rm", "-f", user);
    for (const ref of [...refs, `${NAME}:manual`])
      spawnSync("docker", ["image", "rm", "-f", ref], { stdio: "ignore" });
  });

  it("keeps an unused image built in the last two hours: another checkout may have just built it", async () => {
    expect(await removeOlderImages(NAME, refs[2] as string)).toBe(0);
    expect(await imageId(refs[0] as string)).not.toBeNull();
  });

  it("removes older unused content-hash tags, keeps the current one, the used one and other tags", async () => {
    const later = Date.now() + 3 * 3600_000;
    expect(await removeOlderImages(NAME, refs[2] as string, later)).toBe(1);
    expect(await imageId(refs[0] as string)).toBeNull();
    expect(await imageId(refs[1] as string)).not.toBeNull();
    expect(await imageId(refs[2] as string)).not.toBeNull();
    expect(await imageId(`${NAME}:manual`)).not.toBeNull();
  });
});
