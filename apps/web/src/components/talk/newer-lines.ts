import { TALK_KEPT_MESSAGES, type TalkUpdate } from "@coder/protocol";

/**
 * What the page shows after a look that asked for the lines after its last one: the lines it
 * had, then the newer ones the look brought (the latest TALK_KEPT_MESSAGES, as the service keeps),
 * and the setting as the look found it. A line the page has already is not added twice.
 */
export function withNewerLines(shown: TalkUpdate, look: TalkUpdate): TalkUpdate {
  const lastId = shown.lines.at(-1)?.id ?? 0;
  const newer = look.lines.filter((line) => line.id > lastId);
  const lines = newer.length === 0 ? shown.lines : [...shown.lines, ...newer].slice(-TALK_KEPT_MESSAGES);
  return { ...look, lines };
}
