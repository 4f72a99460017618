import { AGENT_COLLAB_USER } from "@coder/protocol";
import unhomoglyph from "unhomoglyph";
import { z } from "zod";
import { OWNER_NAME } from "./principal";

/**
 * The names the service itself shows for people who are not guests: the owner and the agent. A
 * guest may not take them, nor anything that looks like them.
 */
export const RESERVED_NAMES: readonly string[] = [OWNER_NAME, AGENT_COLLAB_USER.name];

/**
 * What draws nothing on a page: spaces of every kind, control and format characters, the default
 * ignorables (which include the Hangul fillers U+115F, U+1160, U+3164, U+FFA0) and the blank
 * braille pattern U+2800, which fonts draw as an empty cell.
 */
const INVISIBLE = /[\p{White_Space}\p{Z}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/gu;
/** A character that leaves a mark: a letter, a digit, a punctuation mark or a symbol (emoji too). */
const DRAWN = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** UTS #39 skeleton: two strings that look alike to a reader have the same skeleton. */
function skeleton(text: string): string {
  return unhomoglyph(text.normalize("NFD")).normalize("NFD");
}

/**
 * What a name looks like, whatever it is spelled with: its UTS #39 skeleton, with case and
 * invisible characters ignored ("Оwner" in Cyrillic, "0WNER" and "Own\u3164er" all give "owner").
 */
export function lookalikeKey(name: string): string {
  return skeleton(skeleton(name.replace(INVISIBLE, "")).toLowerCase());
}

/** The name of `taken` that `name` looks like, if any. */
export function lookalikeOf(name: string, taken: readonly string[]): string | undefined {
  const key = lookalikeKey(name);
  return taken.find((other) => lookalikeKey(other) === key);
}

/**
 * A guest's display name as everyone will see it: control and format characters (bidi overrides,
 * zero-width joiners, escapes) are dropped, so a name cannot disguise itself; it must draw at least
 * one visible character and must not look like the owner's or the agent's name. Whether it looks
 * like someone already in the workspace is checked when the link is known (`share-links.ts`).
 */
export const guestName = z
  .string()
  .max(1000)
  .transform((name) =>
    name
      .replace(/[\p{Cc}\p{Cf}]/gu, "")
      .normalize("NFC")
      .trim(),
  )
  .pipe(z.string().min(1, "enter your name").max(64, "a name has at most 64 characters"))
  .refine((name) => DRAWN.test(name.replace(INVISIBLE, "")), {
    message: "a name needs at least one visible letter, digit or symbol",
  })
  .superRefine((name, ctx) => {
    const reserved = lookalikeOf(name, RESERVED_NAMES);
    if (reserved !== undefined)
      ctx.addIssue({
        code: "custom",
        message: `"${reserved}" is how the service shows the workspace's ${reserved === OWNER_NAME ? "owner" : "agent"}, and "${name}" looks like it: choose a name of your own`,
      });
  });

/** The sentence a guest reads when their name looks like that of someone already in the workspace. */
export function nameTakenMessage(name: string, present: string): string {
  return name === present
    ? `someone in this workspace is already called "${present}": choose another name`
    : `"${name}" looks like "${present}", the name of someone already in this workspace: choose another name`;
}
