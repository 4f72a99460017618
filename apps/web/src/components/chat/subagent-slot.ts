import { type ComponentType, createContext } from "react";

/**
 * How a task's tool card shows the sub-agent session it ran. The conversation provides the view,
 * so the card (inside a message, inside that view) does not import it back.
 */
export const SubagentSlot = createContext<ComponentType<{ sessionId: string }> | null>(null);
