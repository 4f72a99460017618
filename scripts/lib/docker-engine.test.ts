import { afterEach, describe, expect, it, vi } from "vitest";
import { DOCKERD_LOG, ensureDocker, noDockerMessage, probeEngine, waitForEngine } from "./docker-engine.mjs";
import { SetupError } from "./steps.mjs";

const NOWHERE = "unix:///nonexistent/coder-test/docker.sock";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("probeEngine", () => {
  it("says why an engine that does not answer is unavailable", async () => {
    const engine = await probeEngine({ ...process.env, DOCKER_HOST: NOWHERE });
    expect(engine.ok).toBe(false);
    expect(engine.reason).toMatch(/Cannot connect|not installed/);
  });
});

describe("ensureDocker", () => {
  it("stops with instructions when DOCKER_HOST points at an engine that does not answer", async () => {
    vi.stubEnv("DOCKER_HOST", NOWHERE);
    const failure = ensureDocker();
    await expect(failure).rejects.toBeInstanceOf(SetupError);
    await expect(failure).rejects.toThrow(`DOCKER_HOST is set to ${NOWHERE}`);
  });
});

describe("waitForEngine", () => {
  it("gives up as soon as the dockerd it started has exited, pointing at its log", async () => {
    vi.stubEnv("DOCKER_HOST", NOWHERE);
    await expect(waitForEngine(() => "exit code 1")).rejects.toThrow(
      `dockerd stopped (exit code 1). Last lines of ${DOCKERD_LOG}:`,
    );
  });
});

describe("noDockerMessage", () => {
  it("tells a user without root how to get Docker and how to check it", () => {
    const message = noDockerMessage("permission denied while trying to connect", undefined);
    expect(message).toContain("Docker is not available: permission denied while trying to connect");
    expect(message).toContain("sudo apt-get install docker.io");
    expect(message).toContain("sudo usermod -aG docker $USER");
    expect(message).toContain("Docker Desktop");
    expect(message).toContain("Check with: docker info");
    expect(message).not.toContain("DOCKER_HOST is set");
  });
});
