import { workspacePath } from "@coder/protocol";
import { z } from "zod";

/** Shared param schemas of the fs.* methods (the client validated them too; the daemon trusts no one). */
export const pathParams = z.object({ path: workspacePath });
