import { z } from "zod";

/** The `path, line, character` arguments of lsp_definition and lsp_hover (0-based, as in LSP). */
export const positionParameters = z.object({
  path: z.string().describe("File containing the symbol, relative to the workspace root"),
  line: z.number().int().min(0).describe("0-based line of the symbol (the first line of the file is 0)"),
  character: z.number().int().min(0).describe("0-based character within the line, on the symbol's name"),
});
export type PositionArgs = z.infer<typeof positionParameters>;
