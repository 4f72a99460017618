import { z } from "zod";
import { statExisting } from "../../files/not-found";
import { formatError } from "../../framework/format";
import { defineTool, ToolError } from "../../framework/types";
import { resolveForReading, shownPath } from "../../paths/tool-paths";
import { formatItems, type ListItem, listFolder, MAX_ITEMS } from "./entries";
import description from "./list.txt";

const parameters = z.object({
  path: z
    .string()
    .default(".")
    .describe("Folder to list, relative to the workspace root (default: the root)"),
});

export const listTool = defineTool({
  id: "list",
  description,
  parameters,
  facts: { runsIn: "workspace", reads: "any", changes: "none" },
  templateVars: () => ({ maxItems: MAX_ITEMS }),
  approval: (args) => ({ permission: "read", patterns: [args.path], title: `List ${args.path}` }),
  async execute(args, ctx) {
    const folder = await resolveForReading(ctx, args.path);
    const st = await statExisting(ctx, folder, args.path);
    if (!st.isDirectory()) {
      throw new ToolError(
        "invalid_args",
        `${args.path} is a file, not a folder`,
        "use read to see its contents",
      );
    }
    const { items, total, truncated } = await listFolder(ctx.workspaceRoot, folder);
    return { ok: true, path: shownPath(ctx, folder), items, total, truncated };
  },
  format(result) {
    if (result.error) return formatError(result);
    return formatItems(result.items as ListItem[], result.total as number);
  },
});
