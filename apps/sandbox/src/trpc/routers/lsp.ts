import { authedProcedure, router } from "../init";

/** The language servers the editor may reach through `/lsp/:workspace/:language`. */
export const lspRouter = router({
  servers: authedProcedure.query(({ ctx }) => ctx.lspServers),
});
