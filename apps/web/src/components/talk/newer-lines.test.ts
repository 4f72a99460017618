import { TALK_KEPT_MESSAGES, type TalkLine, type TalkUpdate } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { withNewerLines } from "./newer-lines";

const line = (id: number): TalkLine => ({
  id,
  kind: "message",
  person: { name: "Vera", role: "viewer", guest: true },
  text: `line ${id}`,
  at: new Date(0).toISOString(),
  mine: false,
});
const talk = (ids: number[], viewersMayWrite = true): TalkUpdate => ({
  lines: ids.map(line),
  viewersMayWrite,
  youMayWrite: viewersMayWrite,
});
const ids = (update: TalkUpdate) => update.lines.map((l) => l.id);

describe("the talk a page shows after asking for newer lines", () => {
  it("adds the newer lines after the ones shown, and takes the setting from the look", () => {
    const after = withNewerLines(talk([1, 2, 3]), talk([4, 5], false));
    expect(ids(after)).toEqual([1, 2, 3, 4, 5]);
    expect(after).toMatchObject({ viewersMayWrite: false, youMayWrite: false });
  });

  it("keeps the lines shown when a look brings none, and never shows a line twice", () => {
    const shown = talk([1, 2, 3]);
    expect(withNewerLines(shown, talk([])).lines).toBe(shown.lines);
    expect(ids(withNewerLines(shown, talk([3, 4])))).toEqual([1, 2, 3, 4]);
  });

  it(`shows at most the latest ${TALK_KEPT_MESSAGES} lines, as the service keeps`, () => {
    const shown = talk(Array.from({ length: TALK_KEPT_MESSAGES }, (_, i) => i + 1));
    const after = withNewerLines(shown, talk([TALK_KEPT_MESSAGES + 1, TALK_KEPT_MESSAGES + 2]));
    expect(after.lines).toHaveLength(TALK_KEPT_MESSAGES);
    expect(ids(after).slice(0, 1)).toEqual([3]);
    expect(ids(after).at(-1)).toBe(TALK_KEPT_MESSAGES + 2);
  });
});
