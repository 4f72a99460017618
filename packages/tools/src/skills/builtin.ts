// Built-in skills are compiled into the package, so they work with no skills folder on disk.
import createSkill from "../../../../skills/create-skill/SKILL.md";

export const BUILTIN_SKILL_FILES: readonly { folder: string; text: string }[] = [
  { folder: "create-skill", text: createSkill },
];
