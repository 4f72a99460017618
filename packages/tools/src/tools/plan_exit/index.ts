import { z } from "zod";
import { formatError } from "../../framework/format";
import { requireService } from "../../framework/services";
import { defineTool } from "../../framework/types";
import description from "./plan_exit.txt";

export const planExitTool = defineTool({
  id: "plan_exit",
  description,
  parameters: z.object({}),
  facts: { runsIn: "service", reads: "none", changes: "none" },
  async execute(_args, ctx) {
    const exit = requireService(ctx, "planExit", "plan_exit");
    const { approved } = await exit(ctx);
    return { ok: true, approved };
  },
  format(result) {
    if (result.error) return formatError(result);
    return result.approved
      ? "The plan was approved: plan mode is over, carry it out."
      : "The plan was not approved: stay in plan mode and ask what to change.";
  },
});
