import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema a model sees for a tool's parameters. Input mode, so fields with defaults are
 * optional; the `$schema` tag and zod's ±MAX_SAFE_INTEGER bounds on integers are dropped because
 * they only cost tokens (and some providers reject `$schema`).
 */
export function parametersSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return stripSafeIntegerBounds(json) as JsonSchema;
}

function stripSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSafeIntegerBounds);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    out[key] = stripSafeIntegerBounds(value);
  }
  return out;
}
