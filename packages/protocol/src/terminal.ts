import { z } from "zod";

/**
 * The terminal WebSocket (`/terminal/:workspace/:terminal`): binary frames carry terminal bytes
 * both ways; text frames carry these JSON control messages.
 */
export const terminalName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, "a terminal name is 1–32 letters, digits, _ or -");

/** A terminal window's size in cells. */
const terminalSize = z.object({
  cols: z.number().int().min(2).max(1000),
  rows: z.number().int().min(1).max(500),
});

export const terminalClientMessage = z.discriminatedUnion("type", [
  terminalSize.extend({ type: z.literal("resize") }),
  /** Flow control: the client has processed this many more bytes of output. */
  z.object({ type: z.literal("ack"), bytes: z.number().int().min(0) }),
]);
export type TerminalClientMessage = z.infer<typeof terminalClientMessage>;

/** At most this many people are named in an `attached` message; the rest are counted in `more`. */
export const MAX_ATTACHED_LISTED = 16;

/** One socket attached to the terminal: whose, whether it may type, and its window's size. */
export const attachedPerson = terminalSize.extend({
  name: z.string().min(1).max(64),
  input: z.boolean(),
});
export type AttachedPerson = z.infer<typeof attachedPerson>;

export const terminalServerMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready") }),
  /**
   * Who is attached to the terminal (through this service) and the size of the shared window:
   * the smallest of the windows of those with input (null while nobody with input is attached).
   */
  z.object({
    type: z.literal("attached"),
    people: z.array(attachedPerson).max(MAX_ATTACHED_LISTED),
    more: z.number().int().min(0),
    size: terminalSize.nullable(),
  }),
  z.object({ type: z.literal("exit"), code: z.number().nullable() }),
  z.object({ type: z.literal("error"), message: z.string() }),
]);
export type TerminalServerMessage = z.infer<typeof terminalServerMessage>;

/** The server stops reading from the container when this many sent bytes are not yet acked. */
export const TERMINAL_HIGH_WATER_BYTES = 512 * 1024;
/** The client acks after processing at least this many bytes. */
export const TERMINAL_ACK_EVERY_BYTES = 64 * 1024;
