"use client";

import { createContext, useContext } from "react";
import type { Presence } from "./use-presence";

const NOBODY: Presence = { people: [], showFile: () => {}, following: null, follow: () => {} };

/** The workspace's presence for everything inside the IDE: the list, the tree's marks, following. */
export const PresenceContext = createContext<Presence>(NOBODY);

export function usePresenceState(): Presence {
  return useContext(PresenceContext);
}
