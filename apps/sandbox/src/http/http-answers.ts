import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { HttpRefusal } from "./http-errors";

/** Small JSON bodies (login, share links) are read whole, up to this size. */
export const JSON_BODY_LIMIT = 4096;

/** The one JSON answer of the HTTP routes; never cached, since it is about one caller. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    ...headers,
  });
  res.end(JSON.stringify(body));
}

export function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(text);
}

/** The request body as text; throws once more than `limit` bytes arrived. */
export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error("request body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A JSON body of at most `JSON_BODY_LIMIT` bytes, validated; a 400 refusal when it is not one. */
export async function jsonBody<T>(req: IncomingMessage, schema: z.ZodType<T>): Promise<T> {
  let data: unknown;
  try {
    data = JSON.parse(await readBody(req, JSON_BODY_LIMIT));
  } catch {
    throw new HttpRefusal(400, "send a JSON body");
  }
  return validBody(data, schema);
}

/** `data` as `schema` has it; a 400 refusal naming the first problem when it does not fit. */
export function validBody<T>(data: unknown, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new HttpRefusal(400, parsed.error.issues[0]?.message ?? "invalid request");
}
