import { router } from "./init";
import { filesRouter } from "./routers/files";
import { toolsRouter } from "./routers/tools";
import { workspaceRouter } from "./routers/workspace";

export const appRouter = router({
  workspace: workspaceRouter,
  files: filesRouter,
  tools: toolsRouter,
});

export type AppRouter = typeof appRouter;
