import { router } from "./init";
import { filesRouter } from "./routers/files";
import { inviteProcedures } from "./routers/invite";
import { lspRouter } from "./routers/lsp";
import { presenceRouter } from "./routers/presence";
import { modelsRouter, sessionRouter } from "./routers/session";
import { shareRouter } from "./routers/share";
import { talkRouter } from "./routers/talk";
import { terminalRouter } from "./routers/terminal";
import { toolsRouter } from "./routers/tools";
import { workspaceRouter } from "./routers/workspace";

export const appRouter = router({
  workspace: workspaceRouter,
  files: filesRouter,
  tools: toolsRouter,
  session: sessionRouter,
  models: modelsRouter,
  lsp: lspRouter,
  share: shareRouter,
  presence: presenceRouter,
  terminal: terminalRouter,
  talk: talkRouter,
  user: router({ ...inviteProcedures }),
});

export type AppRouter = typeof appRouter;
