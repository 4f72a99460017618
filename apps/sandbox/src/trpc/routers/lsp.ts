import { router, signedInProcedure } from "../init";

/** The language servers the editor may reach through `/lsp/:workspace/:language`. */
export const lspRouter = router({
  servers: signedInProcedure.query(({ ctx }) => ctx.lspServers),
});
