import type { Message } from "vscode-jsonrpc";
import { z } from "zod";
import { FrameViolation } from "./frame-decoder";

const id = z.union([z.string(), z.number()]);
const params = z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional();

const request = z.looseObject({ jsonrpc: z.literal("2.0"), id, method: z.string(), params });
const notification = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.never().optional(),
  method: z.string(),
  params,
});
const answer = { jsonrpc: z.literal("2.0"), id: id.nullable(), method: z.never().optional() };
const result = z.looseObject({ ...answer, result: z.unknown() });
const error = z.looseObject({
  ...answer,
  error: z.looseObject({ code: z.number().int(), message: z.string() }),
});

/** One JSON-RPC 2.0 request, notification or response; batches are not part of the protocol here. */
const jsonRpcMessage = z.union([request, notification, result, error]);

/** A frame's body as one JSON-RPC message, or a FrameViolation saying why it is not one. */
export function parseJsonRpcMessage(body: Buffer): Message {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    throw new FrameViolation("bad_message", "a message is not JSON");
  }
  const parsed = jsonRpcMessage.safeParse(value);
  if (!parsed.success) throw new FrameViolation("bad_message", "a message is not a JSON-RPC 2.0 message");
  return parsed.data as Message;
}
