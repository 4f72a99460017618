"use client";

import { createContext, type ReactNode, useContext } from "react";

/** Who the person on this page is on the workspace: what the service says, which the UI mirrors. */
export interface WorkspaceAccess {
  role: "owner" | "editor" | "viewer";
  kind: "user" | "guest";
  name: string;
}

const AccessContext = createContext<WorkspaceAccess | null>(null);

/** Gives the IDE below the caller's access; render it only once `workspace.access` answered. */
export function WorkspaceAccessProvider({
  access,
  children,
}: {
  access: WorkspaceAccess;
  children: ReactNode;
}) {
  return <AccessContext.Provider value={access}>{children}</AccessContext.Provider>;
}

export function useWorkspaceAccess(): WorkspaceAccess {
  const access = useContext(AccessContext);
  if (!access) throw new Error("useWorkspaceAccess needs a WorkspaceAccessProvider above it");
  return access;
}

/** Whether the caller may change things: write files, type in terminals, prompt the agent. */
export function useCanEdit(): boolean {
  return useWorkspaceAccess().role !== "viewer";
}
