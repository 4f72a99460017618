import { MAX_SPILL_BYTES, spillToFolder } from "@coder/tools";
import { z } from "zod";
import { defineMethod } from "../rpc/dispatch";

/**
 * tools.spill: keeps the full text of an output the service cut for the model (its own tools run
 * outside the container) in the spill folder, where `read` and `grep` find it; answers the path.
 */
export const spillMethod = (spillDir: string) =>
  defineMethod({
    params: z.object({
      callId: z.string().min(1).max(256),
      // Characters, not bytes: the service cuts to MAX_SPILL_BYTES, which is never more characters.
      content: z.string().max(MAX_SPILL_BYTES, "the output to keep is larger than 8 MB"),
    }),
    run: async (params) => ({ path: await spillToFolder(spillDir)(params.callId, params.content) }),
  });
