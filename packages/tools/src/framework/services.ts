import { type AgentServices, type ToolContext, ToolError } from "./types";

/** The runner the agent runtime supplied for `name`, or an `unavailable` error saying so. */
export function requireService<K extends keyof AgentServices>(
  ctx: ToolContext,
  name: K,
  tool: string,
): NonNullable<AgentServices[K]> {
  const service = ctx.services?.[name];
  if (!service) {
    throw new ToolError(
      "unavailable",
      `${tool} needs the agent runtime (or a person) and is not available here`,
      "carry on without it",
    );
  }
  return service.bind(ctx.services) as NonNullable<AgentServices[K]>;
}
