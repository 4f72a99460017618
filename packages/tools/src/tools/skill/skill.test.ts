import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolsConfig } from "../../framework/types";
import { createTestWorkspace, type TestWorkspace } from "../../testing/workspace";
import { createDefaultRegistry } from "../builtin";

const skillFile = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: "${description}"\n---\n\n${body}\n`;

let ws: TestWorkspace;
let home: string;
beforeEach(() => {
  // The registry keeps this config object, so the home folder can be set once the workspace exists.
  const config: ToolsConfig = {};
  ws = createTestWorkspace({}, config);
  home = path.join(ws.outside, "home");
  config.homeDir = home;
});
afterEach(() => ws.cleanup());

function userSkill(folder: string, name: string, description: string, body: string): void {
  mkdirSync(path.join(home, ".coder/skills", folder), { recursive: true });
  writeFileSync(path.join(home, ".coder/skills", folder, "SKILL.md"), skillFile(name, description, body));
}

describe("skill", () => {
  it("lists the built-in create-skill when nothing else exists", async () => {
    const { result, output } = await ws.call("skill", { action: "list" });
    expect(result.skills).toEqual([
      { name: "create-skill", description: expect.stringContaining("Create"), source: "builtin" },
    ]);
    expect(output).toMatch(/^- create-skill \(builtin\): Create/);
  });

  it("loads the built-in create-skill, which uses coder's paths", async () => {
    const { result, output } = await ws.call("skill", { action: "load", name: "create-skill" });
    expect(result).toMatchObject({ ok: true, name: "create-skill", source: "builtin" });
    expect(result.content).toContain(".coder/skills/");
    expect(result.content).toContain("~/.coder/skills/");
    expect(result.content).not.toMatch(/cursor/i);
    expect(output.startsWith('<skill name="create-skill">')).toBe(true);
  });

  it("finds project and personal skills, the project's winning a name clash", async () => {
    ws.write(".coder/skills/deploy/SKILL.md", skillFile("deploy", "Deploy this app", "Run make deploy."));
    userSkill("deploy", "deploy", "My deploy", "Something else.");
    userSkill("notes", "notes", "Take notes", "Write notes.");
    const { result } = await ws.call("skill", { action: "list" });
    expect(result.skills).toEqual([
      expect.objectContaining({ name: "create-skill", source: "builtin" }),
      { name: "deploy", description: "Deploy this app", source: "project" },
      { name: "notes", description: "Take notes", source: "user" },
    ]);
    const loaded = await ws.call("skill", { action: "load", name: "deploy" });
    expect(loaded.result).toMatchObject({ content: "Run make deploy.", directory: ".coder/skills/deploy" });
  });

  it("lets a user skill override the built-in one of the same name", async () => {
    userSkill("create-skill", "create-skill", "Our own way", "Ask the platform team.");
    const { result } = await ws.call("skill", { action: "load", name: "create-skill" });
    expect(result).toMatchObject({ source: "user", content: "Ask the platform team." });
  });

  it("reads skills from configured paths, naming a skill after its folder when the front matter does not", async () => {
    const custom = createTestWorkspace(
      { "team/skills/lint/SKILL.md": "Run the linter." },
      { skills: { paths: ["team/skills"] } },
    );
    try {
      const { result } = await custom.call("skill", { action: "load", name: "lint" });
      expect(result).toMatchObject({ ok: true, name: "lint", description: "", content: "Run the linter." });
    } finally {
      custom.cleanup();
    }
  });

  it("ignores a workspace skill that links to a file outside the workspace", async () => {
    writeFileSync(path.join(ws.outside, "secret.md"), "---\nname: leak\ndescription: x\n---\nsecret\n");
    mkdirSync(path.join(ws.root, ".coder/skills/leak"), { recursive: true });
    symlinkSync(path.join(ws.outside, "secret.md"), path.join(ws.root, ".coder/skills/leak/SKILL.md"));
    expect((await ws.call("skill", { action: "load", name: "leak" })).result.error?.code).toBe("not_found");
  });

  it("says plainly when a skill does not exist", async () => {
    const { result, output } = await ws.call("skill", { action: "load", name: "nope" });
    expect(result).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(result.error?.hint).toContain("create-skill");
    expect(output).toContain('there is no skill named "nope"');
  });

  it("needs a name to load", async () => {
    const { result } = await ws.call("skill", { action: "load" });
    expect(result.error).toMatchObject({
      code: "invalid_args",
      message: expect.stringContaining("name: required when action is load"),
    });
  });

  it("asks approval for loading, not for listing", () => {
    const registry = createDefaultRegistry();
    expect(registry.approvalRequest("skill", { action: "load", name: "deploy" })).toEqual({
      permission: "skill",
      patterns: ["deploy"],
      title: "Load skill deploy",
    });
    expect(registry.approvalRequest("skill", { action: "list" })).toBeUndefined();
  });
});
