import { type JsonSchema, parametersSchema } from "./json-schema";
import type { Tool } from "./types";

export type ToolDefinitionErrorKind =
  | "empty_name"
  | "invalid_name"
  | "empty_description"
  | "invalid_parameters"
  | "required_not_defined"
  | "duplicate_name";

/** Why `register(tool)` refused a definition (spec §2, seed 002's ToolValidationError). */
export class ToolDefinitionError extends Error {
  constructor(
    readonly kind: ToolDefinitionErrorKind,
    readonly toolId: string,
    message: string,
  ) {
    super(message);
    this.name = "ToolDefinitionError";
  }
}

// Function names accepted by every major model API.
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Checks a definition and returns its parameters as JSON Schema; throws ToolDefinitionError. */
export function validateDefinition(tool: Tool, existing: { has(id: string): boolean }): JsonSchema {
  const id = tool.id ?? "";
  if (id.trim() === "") throw new ToolDefinitionError("empty_name", id, "a tool needs a name");
  if (!NAME.test(id)) {
    throw new ToolDefinitionError(
      "invalid_name",
      id,
      `tool name "${id}" must start with a letter and use only letters, digits, _ and - (at most 64)`,
    );
  }
  if ((tool.description ?? "").trim() === "") {
    throw new ToolDefinitionError("empty_description", id, `tool "${id}" needs a description`);
  }
  if (existing.has(id)) {
    throw new ToolDefinitionError("duplicate_name", id, `a tool named "${id}" is already registered`);
  }

  let schema: JsonSchema;
  try {
    schema = parametersSchema(tool.parameters);
  } catch (error) {
    throw new ToolDefinitionError(
      "invalid_parameters",
      id,
      `tool "${id}" parameters cannot be expressed as JSON Schema: ${(error as Error).message}`,
    );
  }
  if (schema.type !== "object") {
    throw new ToolDefinitionError("invalid_parameters", id, `tool "${id}" parameters must be an object`);
  }
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const missing = required.filter((name) => !Object.hasOwn(properties, name));
  if (missing.length > 0) {
    throw new ToolDefinitionError(
      "required_not_defined",
      id,
      `tool "${id}" requires ${missing.map((m) => `"${m}"`).join(", ")} but does not define it`,
    );
  }
  return schema;
}
