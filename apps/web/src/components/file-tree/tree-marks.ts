import type { PresencePerson } from "@coder/protocol";
import { presenceLabel } from "../presence/presence-label";

/** Dots a file's row shows at most; the others who have it open are counted. */
export const MAX_DOTS_PER_FILE = 3;

/** Who else has a file open, as its row in the tree shows them. */
export interface FileMark {
  dots: { id: string; colour: string; name: string }[];
  /** How many more have it open than there are dots. */
  more: number;
}

/** The files others (the agent too) have open, each with a coloured dot per person, at most a few. */
export function treeMarks(people: readonly PresencePerson[]): ReadonlyMap<string, FileMark> {
  const marks = new Map<string, FileMark>();
  for (const person of people) {
    if (person.you || !person.file) continue;
    let mark = marks.get(person.file);
    if (!mark) {
      mark = { dots: [], more: 0 };
      marks.set(person.file, mark);
    }
    if (mark.dots.length < MAX_DOTS_PER_FILE)
      mark.dots.push({ id: person.id, colour: person.colour, name: presenceLabel(person) });
    else mark.more++;
  }
  return marks;
}
