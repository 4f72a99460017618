import { z } from "zod";

/** ripgrep gives a path or line as UTF-8 `text`, or as base64 `bytes` when it is not valid UTF-8. */
const data = z.union([z.object({ text: z.string() }), z.object({ bytes: z.string() })]);

const matchMessage = z.object({
  type: z.literal("match"),
  data: z.object({
    path: data,
    lines: data,
    line_number: z.number().int().positive(),
    submatches: z.array(
      z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }),
    ),
  }),
});

export interface RipgrepMatch {
  path: string;
  line: number;
  text: string;
  /** Byte offsets into `text`'s UTF-8. */
  submatches: { start: number; end: number }[];
}

function decode(value: z.infer<typeof data>): string {
  return "text" in value ? value.text : Buffer.from(value.bytes, "base64").toString("utf8");
}

/** One line of `rg --json`: a match, or undefined for the other messages (begin, end, summary). */
export function parseMatch(line: string): RipgrepMatch | undefined {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = matchMessage.safeParse(json);
  if (!parsed.success) return undefined;
  const { path, lines, line_number, submatches } = parsed.data.data;
  return { path: decode(path), line: line_number, text: decode(lines), submatches };
}
