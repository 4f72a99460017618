import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { loadSecretKey, SECRET_KEY_FILE } from "./secret-key";

describe("the service's secret key", () => {
  const folders: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "coder-key-"));
    folders.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("is made at first start into the data folder, readable by the service's user only, and kept", async () => {
    const dir = dataDir();
    const first = await loadSecretKey(undefined, dir);
    expect(first).toHaveLength(32);
    expect(statSync(path.join(dir, SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(await loadSecretKey(undefined, dir)).toEqual(first);
  });

  it("is CODER_SECRET_KEY when set, and a wrong one stops the start with the variable's name", async () => {
    const key = randomBytes(32);
    const config = loadConfig({ CODER_IMAGE: "x", CODER_SECRET_KEY: key.toString("base64") });
    expect(config.secretKey).toEqual(key);
    const dir = dataDir();
    expect(await loadSecretKey(config.secretKey, dir)).toEqual(key);
    expect(() => loadConfig({ CODER_IMAGE: "x", CODER_SECRET_KEY: "short" })).toThrow(/CODER_SECRET_KEY/);
  });

  it("refuses a damaged key file rather than making a new key that opens nothing", async () => {
    const dir = dataDir();
    writeFileSync(path.join(dir, SECRET_KEY_FILE), "garbage\n", { mode: 0o600 });
    await expect(loadSecretKey(undefined, dir)).rejects.toThrow(/CODER_SECRET_KEY/);
    expect(readFileSync(path.join(dir, SECRET_KEY_FILE), "utf8")).toBe("garbage\n");
  });
});
