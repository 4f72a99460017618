import { mergeRouters, router } from "./init";
import { adminRouter, workspaceTransferRouter } from "./routers/admin";
import { auditRouter } from "./routers/audit";
import { filesRouter } from "./routers/files";
import { gitRouter } from "./routers/git";
import { lspRouter } from "./routers/lsp";
import { presenceRouter } from "./routers/presence";
import { profileRouter } from "./routers/profile";
import { modelsRouter, sessionRouter } from "./routers/session";
import { shareRouter } from "./routers/share";
import { talkRouter } from "./routers/talk";
import { terminalRouter } from "./routers/terminal";
import { toolsRouter } from "./routers/tools";
import { userRouter } from "./routers/user";
import { workspaceRouter } from "./routers/workspace";

export const appRouter = router({
  workspace: mergeRouters(workspaceRouter, workspaceTransferRouter),
  files: filesRouter,
  git: gitRouter,
  tools: toolsRouter,
  session: sessionRouter,
  models: modelsRouter,
  lsp: lspRouter,
  share: shareRouter,
  presence: presenceRouter,
  terminal: terminalRouter,
  talk: talkRouter,
  audit: auditRouter,
  user: userRouter,
  admin: adminRouter,
  profile: profileRouter,
});

export type AppRouter = typeof appRouter;
