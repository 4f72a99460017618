import { describe, expect, it } from "vitest";
import { loadConfig } from "./config";

describe("loadConfig", () => {
  it("applies defaults", () => {
    const c = loadConfig({ CODER_IMAGE: "img" });
    expect(c.port).toBe(7070);
    expect(c.host).toBe("127.0.0.1");
    expect(c.runtime).toBe("runc");
    expect(c.limits.memoryBytes).toBe(2048 * 1024 * 1024);
    expect(c.warmPool).toBe(2);
    expect(c.idleStopSeconds).toBe(1800);
  });

  it("reads a true/false variable in any case and stops the start on a misspelt one, naming it", () => {
    expect(loadConfig({ CODER_IMAGE: "img", CODER_SECURE_COOKIES: "TRUE" }).secureCookies).toBe(true);
    expect(loadConfig({ CODER_IMAGE: "img", CODER_SECURE_COOKIES: "No" }).secureCookies).toBe(false);
    expect(() => loadConfig({ CODER_IMAGE: "img", CODER_EXPERIMENTAL_WEBSEARCH: "ture" })).toThrow(
      /CODER_EXPERIMENTAL_WEBSEARCH/,
    );
  });

  it("reads the agent's variables with the rest", () => {
    const agent = loadConfig({ CODER_IMAGE: "img", CODER_MODELS: " a, ,b ", OPENAI_API_KEY: "sk" }).agent;
    expect(agent).toEqual({ openAiCompatible: {}, openAiApiKey: "sk", models: ["a", "b"], experimental: {} });
  });

  it("bounds the workspace disk at 10 GB and the snapshot store at a quarter of it, at most 1 GB", () => {
    expect(loadConfig({ CODER_IMAGE: "img" }).disk).toEqual({ workspaceMb: 10240, stateMb: 1024 });
    expect(loadConfig({ CODER_IMAGE: "img", CODER_DISK_MB: "64" }).disk).toEqual({
      workspaceMb: 64,
      stateMb: 16,
    });
    expect(loadConfig({ CODER_IMAGE: "img", CODER_DISK_MB: "0" }).disk.workspaceMb).toBe(0);
    expect(() => loadConfig({ CODER_IMAGE: "img", CODER_DISK_MB: "32" })).toThrow(/CODER_DISK_MB/);
    expect(() => loadConfig({ CODER_IMAGE: "img", CODER_DISK_DIR: "disks" })).toThrow(/CODER_DISK_DIR/);
  });

  it("runs on SQLite in the data folder unless a PostgreSQL URL is given", () => {
    expect(loadConfig({ CODER_IMAGE: "img" }).databaseUrl).toBeUndefined();
    const url = "postgres://coder:secret@db.internal:5432/coder";
    expect(loadConfig({ CODER_IMAGE: "img", CODER_DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(() => loadConfig({ CODER_IMAGE: "img", CODER_DATABASE_URL: "mysql://x/y" })).toThrow(
      /CODER_DATABASE_URL/,
    );
  });

  it("runs workspaces on the Docker engine unless a swarm is asked for, placed by its constraints", () => {
    expect(loadConfig({ CODER_IMAGE: "img" }).driver).toBe("docker");
    const c = loadConfig({
      CODER_IMAGE: "img",
      CODER_DRIVER: "swarm",
      CODER_SWARM_CONSTRAINTS: "node.labels.coder==yes, node.role!=manager",
    });
    expect(c.driver).toBe("swarm");
    expect(c.swarm.constraints).toEqual(["node.labels.coder==yes", "node.role!=manager"]);
    expect(c.swarm.reservations).toEqual({ memoryBytes: 256 * 1024 * 1024, nanoCpus: 250_000_000 });
    // Under gVisor, only on the nodes labelled for it.
    expect(c.swarm.gvisorConstraint).toBe("node.labels.coder.runtime==runsc");
    expect(() => loadConfig({ CODER_IMAGE: "img", CODER_SWARM_CONSTRAINTS: "node.role" })).toThrow(
      /CODER_SWARM_CONSTRAINTS/,
    );
  });

  it("reaches a swarm's manager and the other instances only with the cluster's TLS certificates", () => {
    expect(loadConfig({ CODER_IMAGE: "img" }).swarmNodes).toEqual({});
    const tls = {
      CODER_SWARM_TLS_CA: "/tls/ca.pem",
      CODER_SWARM_TLS_CERT: "/tls/cert.pem",
      CODER_SWARM_TLS_KEY: "/tls/key.pem",
    };
    const c = loadConfig({
      CODER_IMAGE: "img",
      CODER_DRIVER: "swarm",
      DOCKER_HOST: "unix:///var/run/docker.sock",
      CODER_SWARM_MANAGER: "tcp://manager.example:2376",
      CODER_NODE_PORT: "7071",
      CODER_NODE_ADDRESS: "worker-1.example",
      ...tls,
    });
    expect(c.swarmNodes).toEqual({
      dockerHost: "unix:///var/run/docker.sock",
      manager: { host: "manager.example", port: 2376 },
      tls: { ca: "/tls/ca.pem", cert: "/tls/cert.pem", key: "/tls/key.pem" },
      nodeChannel: { port: 7071, address: "worker-1.example" },
    });
    expect(() =>
      loadConfig({ CODER_IMAGE: "img", CODER_SWARM_MANAGER: "tcp://manager.example:2376" }),
    ).toThrow(/CODER_SWARM_TLS_CA[\s\S]*CODER_SWARM_TLS_CERT[\s\S]*CODER_SWARM_TLS_KEY/);
    expect(() =>
      loadConfig({ CODER_IMAGE: "img", CODER_NODE_PORT: "7071", CODER_SWARM_TLS_CA: "/ca" }),
    ).toThrow(/CODER_SWARM_TLS_CERT/);
    expect(() => loadConfig({ CODER_IMAGE: "img", CODER_SWARM_MANAGER: "http://m:2375", ...tls })).toThrow(
      /CODER_SWARM_MANAGER/,
    );
  });

  it("names every invalid setting in one readable error", () => {
    expect(() => loadConfig({ CODER_PORT: "nope", CODER_RUNTIME: "kata" })).toThrow(
      /CODER_PORT[\s\S]*CODER_IMAGE[\s\S]*CODER_RUNTIME|CODER_PORT[\s\S]*CODER_RUNTIME[\s\S]*CODER_IMAGE/,
    );
  });
});

describe("the host names the service answers to", () => {
  it("are loopback and the bind address by default", () => {
    expect(loadConfig({ CODER_IMAGE: "img" }).allowedHosts.sort()).toEqual([
      "127.0.0.1",
      "[::1]",
      "localhost",
    ]);
    expect(loadConfig({ CODER_IMAGE: "img", CODER_HOST: "10.1.2.3" }).allowedHosts).toContain("10.1.2.3");
    expect(loadConfig({ CODER_IMAGE: "img", CODER_HOST: "::1" }).allowedHosts).toContain("[::1]");
  });

  it("do not include every address when the service binds to all of them", () => {
    for (const bind of ["0.0.0.0", "::"]) {
      expect(loadConfig({ CODER_IMAGE: "img", CODER_HOST: bind }).allowedHosts.sort()).toEqual([
        "127.0.0.1",
        "[::1]",
        "localhost",
      ]);
    }
  });

  it("include the allowed origins' hosts, whose origins are normalised", () => {
    const c = loadConfig({
      CODER_IMAGE: "img",
      CODER_ALLOWED_ORIGINS: "https://IDE.example/, http://10.0.0.5:8080",
    });
    expect(c.allowedOrigins).toEqual(["https://ide.example", "http://10.0.0.5:8080"]);
    expect(c.allowedHosts).toEqual(expect.arrayContaining(["ide.example", "10.0.0.5"]));
  });

  it("refuse an allowed origin that is not an http(s) URL", () => {
    expect(() => loadConfig({ CODER_IMAGE: "img", CODER_ALLOWED_ORIGINS: "ide.example" })).toThrow(
      /CODER_ALLOWED_ORIGINS: ide\.example is not an http\(s\) origin/,
    );
  });
});
