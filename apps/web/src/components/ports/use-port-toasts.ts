"use client";

import type { PreviewPort } from "@coder/protocol";
import { useEffect, useRef } from "react";
import type { WorkspaceAccess } from "../access/workspace-access";
import { useToasts } from "../toast/Toasts";
import { canOpenPort, newlyListening, portLabel } from "./port-rows";

/** A toast for each port that starts listening while the IDE is open, with Open when it may be. */
export function usePortToasts(
  ports: readonly PreviewPort[] | undefined,
  role: WorkspaceAccess["role"],
  onOpen: (port: number) => void,
): void {
  const toasts = useToasts();
  const seen = useRef<readonly PreviewPort[] | undefined>(undefined);
  useEffect(() => {
    if (!ports || ports === seen.current) return;
    for (const port of newlyListening(seen.current, ports)) {
      const open = canOpenPort(role, port.visibility)
        ? { label: "Open", run: () => onOpen(port.port) }
        : undefined;
      toasts.news(`Port ${portLabel(port)} is listening`, open);
    }
    seen.current = ports;
  }, [ports, role, onOpen, toasts]);
}
