import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { containerLayout } from "./container-layout";

const dockerfile = readFileSync(
  path.resolve(import.meta.dirname, "../../../images/workspace/Dockerfile"),
  "utf8",
);

describe("the container layout", () => {
  it("is what the workspace image builds: its user, folders and daemon paths", () => {
    const { user, workspace, stateDir, daemonNode, daemonScript } = containerLayout;
    expect(dockerfile).toContain(`--uid ${user.uid}`);
    expect(dockerfile).toContain(`--home-dir ${user.home}`);
    expect(dockerfile).toMatch(new RegExp(`^USER ${user.name}$`, "m"));
    expect(dockerfile).toMatch(new RegExp(`^WORKDIR ${workspace}$`, "m"));
    expect(dockerfile).toContain(`${workspace} ${stateDir}`);
    expect(dockerfile).toContain(` ${daemonNode}\n`);
    expect(dockerfile).toMatch(new RegExp(`^COPY daemon\\.mjs ${daemonScript}$`, "m"));
    expect(containerLayout.snapshotDir.startsWith(`${stateDir}/`)).toBe(true);
  });

  it("names the daemon's git credential helper in the image's system git configuration", () => {
    const { daemonNode, daemonScript, gitCredentialSocket } = containerLayout;
    expect(dockerfile).toContain(`credential.helper '!${daemonNode} ${daemonScript} git-credential'`);
    // Under /tmp, a tmpfs every workspace has, in a folder of its own for the 0700 mode.
    expect(gitCredentialSocket).toMatch(/^\/tmp\/[^/]+\/[^/]+\.sock$/);
  });
});
