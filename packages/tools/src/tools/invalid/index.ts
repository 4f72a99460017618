import { z } from "zod";
import { defineTool, fail } from "../../framework/types";
import description from "./invalid.txt";

const parameters = z.object({
  tool: z.string().describe("The tool the model tried to call"),
  error: z.string().describe("Why the call could not be used (e.g. its arguments were not valid JSON)"),
});

/**
 * The agent runtime routes a call whose arguments cannot be parsed (or that names no tool) here,
 * so the model gets a normal tool answer telling it what to fix instead of the turn failing.
 */
export const invalidTool = defineTool({
  id: "invalid",
  description,
  parameters,
  facts: { runsIn: "workspace", reads: "none", changes: "none" },
  hidden: true,
  async execute(args) {
    return fail(
      "invalid_args",
      `the call to ${args.tool} could not be used: ${args.error}`,
      "send the call again with arguments that match the tool's parameters",
    );
  },
});
