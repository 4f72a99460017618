import { createContext, useContext } from "react";

/**
 * Whether the person looking may act in the chat: answer the agent's approvals and questions.
 * A viewer watches only (the service refuses them anyway); ChatPanel provides it from its
 * `readOnly` prop.
 */
export const ChatAccess = createContext<{ canAct: boolean }>({ canAct: true });

export function useCanAct(): boolean {
  return useContext(ChatAccess).canAct;
}
