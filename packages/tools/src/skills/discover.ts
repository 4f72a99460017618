import { readdir, readFile, realpath } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ToolsConfig } from "../framework/types";
import { isInside } from "../paths/resolve";
import { BUILTIN_SKILL_FILES } from "./builtin";
import { parseSkillFile } from "./front-matter";

export interface Skill {
  name: string;
  description: string;
  /** builtin: compiled in; project: under the workspace; user: anywhere else (e.g. ~/.coder/skills). */
  source: "builtin" | "project" | "user";
  /** The skill's folder on disk (absolute), for the files it refers to. */
  directory?: string;
  /** SKILL.md without its front matter. */
  content: string;
}

/** The folders searched by default: the workspace's own skills, then the person's. */
export const DEFAULT_SKILL_PATHS = [".coder/skills", "~/.coder/skills"];

/**
 * Every skill visible in this workspace by name. Folders are searched in the order configured and
 * the first skill of a name wins; any user skill overrides a built-in one of the same name.
 */
export async function discoverSkills(
  config: ToolsConfig,
  workspaceRoot: string,
): Promise<Map<string, Skill>> {
  const skills = new Map<string, Skill>();
  const home = config.homeDir ?? os.homedir();
  for (const configured of config.skills?.paths ?? DEFAULT_SKILL_PATHS) {
    const folder = configured.startsWith("~")
      ? path.join(home, configured.slice(1))
      : path.resolve(workspaceRoot, configured);
    for (const skill of await skillsIn(folder, workspaceRoot)) {
      if (!skills.has(skill.name)) skills.set(skill.name, skill);
    }
  }
  for (const { folder, text } of BUILTIN_SKILL_FILES) {
    const skill = toSkill(text, folder, "builtin");
    if (!skills.has(skill.name)) skills.set(skill.name, skill);
  }
  return skills;
}

async function skillsIn(folder: string, workspaceRoot: string): Promise<Skill[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const found: Skill[] = [];
  for (const name of names.sort()) {
    const file = path.join(folder, name, "SKILL.md");
    const real = await realpath(file).catch(() => undefined);
    if (!real) continue;
    const inWorkspace = isInside(workspaceRoot, path.resolve(folder));
    // A workspace is untrusted: its skills may not be links to files elsewhere on the machine.
    if (inWorkspace && !isInside(workspaceRoot, real)) continue;
    const text = await readFile(real, "utf8").catch(() => undefined);
    if (text === undefined) continue;
    found.push({ ...toSkill(text, name, inWorkspace ? "project" : "user"), directory: path.dirname(file) });
  }
  return found;
}

function toSkill(text: string, folder: string, source: Skill["source"]): Skill {
  const { fields, body } = parseSkillFile(text);
  return {
    name: fields.name || folder,
    description: fields.description ?? "",
    source,
    content: body.trim(),
  };
}
