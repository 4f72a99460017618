"use client";

import { useEffect } from "react";
import { leaveWorkspace, rememberWorkspaceName } from "./leave-workspace";

/** A guest's way out of `workspaceName`: ends their session and says how to come back. */
export function LeaveButton({ workspaceName }: { workspaceName?: string }) {
  useEffect(() => {
    if (workspaceName) rememberWorkspaceName(workspaceName);
  }, [workspaceName]);
  return (
    <button type="button" className="button" data-testid="leave" onClick={() => void leaveWorkspace()}>
      Leave
    </button>
  );
}
