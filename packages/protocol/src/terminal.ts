import { z } from "zod";

/**
 * The terminal WebSocket (`/terminal/:workspace/:terminal`): binary frames carry terminal bytes
 * both ways; text frames carry these JSON control messages.
 */
export const terminalName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, "a terminal name is 1–32 letters, digits, _ or -");

export const terminalClientMessage = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("resize"),
    cols: z.number().int().min(2).max(1000),
    rows: z.number().int().min(1).max(500),
  }),
  /** Flow control: the client has processed this many more bytes of output. */
  z.object({ type: z.literal("ack"), bytes: z.number().int().min(0) }),
]);
export type TerminalClientMessage = z.infer<typeof terminalClientMessage>;

export const terminalServerMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready") }),
  z.object({ type: z.literal("exit"), code: z.number().nullable() }),
  z.object({ type: z.literal("error"), message: z.string() }),
]);
export type TerminalServerMessage = z.infer<typeof terminalServerMessage>;

/** The server stops reading from the container when this many sent bytes are not yet acked. */
export const TERMINAL_HIGH_WATER_BYTES = 512 * 1024;
/** The client acks after processing at least this many bytes. */
export const TERMINAL_ACK_EVERY_BYTES = 64 * 1024;
