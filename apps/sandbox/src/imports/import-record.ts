import { importOrigin, unpackReport } from "@coder/protocol";
import { z } from "zod";

/** What the workspaces table keeps of an import (column `import_record`): never a token. */
export const importRecord = z.object({
  origin: importOrigin,
  state: z.enum(["running", "failed", "done"]),
  /** Why it failed, in git's or the unpacker's words. */
  detail: z.string().max(4000).optional(),
  report: unpackReport.optional(),
});
export type ImportRecord = z.infer<typeof importRecord>;

/** The stored record, or undefined for a workspace made empty (or a record that does not parse). */
export function readImportRecord(json: string | null): ImportRecord | undefined {
  if (!json) return undefined;
  try {
    const parsed = importRecord.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
