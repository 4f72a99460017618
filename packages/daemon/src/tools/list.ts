import { z } from "zod";
import { defineMethod } from "../rpc/dispatch";
import type { ToolRunner } from "./runner";

export const listMethod = (runner: ToolRunner) =>
  defineMethod({
    params: z.object({ agent: z.string().optional(), model: z.string().optional() }),
    run: async (params) => ({ tools: runner.definitions(params) }),
  });
