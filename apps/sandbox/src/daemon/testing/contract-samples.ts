// Test support: answers built from the daemon contract's own schemas, so a test can walk every
// method of the table (not a hand list): a smallest valid value, and how to make it oversized by
// going one past a bound the schema declares (a string's or list's length, a number's maximum).
import type { z } from "zod";

type Def = {
  type: string;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string>;
  values?: unknown[];
  in?: z.ZodType;
};

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

function check(schema: z.ZodType, name: string, field: string): number | undefined {
  for (const c of defOf(schema).checks ?? []) {
    if (c._zod.def.check === name) return c._zod.def[field] as number;
  }
  return undefined;
}

/** A smallest value the schema accepts (strings and numbers tried from a few candidates). */
export function sampleOf(schema: z.ZodType): unknown {
  const def = defOf(schema);
  const accepted = (candidates: unknown[]) => candidates.find((c) => schema.safeParse(c).success);
  switch (def.type) {
    case "object":
      return Object.fromEntries(
        Object.entries(def.shape ?? {})
          .filter(([, field]) => !["optional", "default"].includes(defOf(field).type))
          .map(([key, field]) => [key, sampleOf(field)]),
      );
    case "string": {
      const min = Math.max(1, check(schema, "min_length", "minimum") ?? 1);
      return accepted(["a".repeat(min), "0".repeat(40), "."]);
    }
    case "number":
      return accepted([1, 0, check(schema, "greater_than", "value")]);
    case "boolean":
      return false;
    case "array":
      return (check(schema, "min_length", "minimum") ?? 0) > 0 ? [sampleOf(def.element as z.ZodType)] : [];
    case "record":
      return {};
    case "enum":
      return Object.values(def.entries ?? {})[0];
    case "literal":
      return def.values?.[0];
    case "union":
      return sampleOf((def.options ?? [])[0] as z.ZodType);
    case "optional":
    case "default":
    case "nullable":
      return sampleOf(def.innerType as z.ZodType);
    case "pipe":
      return sampleOf(def.in as z.ZodType);
    default:
      return null;
  }
}

/** Where to put a value one past a bound, and which: the fake daemon builds it (it may be megabytes). */
export type Oversize = { path: (string | number)[] } & (
  | { string: number }
  | { array: number; item: unknown }
  | { number: number }
);

/** The first bound the schema declares, walked in field order, or undefined when it has none. */
export function oversizeOf(schema: z.ZodType, path: (string | number)[] = []): Oversize | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case "object":
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const found = oversizeOf(field, [...path, key]);
        if (found) return found;
      }
      return undefined;
    case "string": {
      const max = check(schema, "max_length", "maximum");
      return max === undefined ? undefined : { path, string: max + 1 };
    }
    case "number": {
      const max = check(schema, "less_than", "value");
      return max === undefined ? undefined : { path, number: max + 1 };
    }
    case "array": {
      const max = check(schema, "max_length", "maximum");
      return max === undefined
        ? undefined
        : { path, array: max + 1, item: sampleOf(def.element as z.ZodType) };
    }
    case "optional":
    case "default":
    case "nullable":
      return oversizeOf(def.innerType as z.ZodType, path);
    case "union":
      return oversizeOf((def.options ?? [])[0] as z.ZodType, path);
    default:
      return undefined;
  }
}

/** The sample with its first field given a value of another type: the contract must refuse it. */
export function malformedOf(sample: unknown): unknown {
  if (typeof sample !== "object" || sample === null || Array.isArray(sample)) return { malformed: true };
  const [key, value] = Object.entries(sample)[0] ?? ["malformed", undefined];
  return { ...sample, [key]: typeof value === "string" ? 42 : "not what the contract says" };
}

/** The value `oversize` describes, built over `sample` (the fake daemon runs this same code). */
export function buildOversized(sample: unknown, oversize: Oversize): unknown {
  const value =
    "string" in oversize
      ? "x".repeat(oversize.string)
      : "array" in oversize
        ? Array.from({ length: oversize.array }, () => oversize.item)
        : oversize.number;
  if (oversize.path.length === 0) return value;
  const root = structuredClone(sample) as Record<string | number, unknown>;
  let at = root;
  for (const key of oversize.path.slice(0, -1)) {
    at[key] ??= {};
    at = at[key] as Record<string | number, unknown>;
  }
  at[oversize.path.at(-1) as string | number] = value;
  return root;
}
