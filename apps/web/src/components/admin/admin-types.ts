import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../lib/trpc/app-router";

type Outputs = inferRouterOutputs<AppRouter>;
/** A user as `user.list` gives them. */
export type AdminUser = Outputs["user"]["list"][number];
/** A workspace as `admin.workspaces` gives it. */
export type AdminWorkspace = Outputs["admin"]["workspaces"][number];
export type Limits = AdminUser["limits"];
