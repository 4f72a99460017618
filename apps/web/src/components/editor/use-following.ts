"use client";

import { useEffect } from "react";
import { usePresenceState } from "../presence/presence-context";
import type { EditorController } from "./editor-controller";

/** Elements whose clicks do not stop following (the presence list, the follow bar itself). */
const KEEPS_FOLLOWING = "[data-follow-keep]";
/** Keys that type nothing on their own. */
const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta"]);

/**
 * While this tab follows someone: opens the file they have open at their cursor, keeps up as
 * they move or open another file, and stops as soon as the follower types or clicks elsewhere.
 * Returns the person followed (null: nobody).
 */
export function useFollowing(controller: EditorController): { id: string; name: string } | null {
  const { people, following, follow } = usePresenceState();
  const leader = people.find((person) => person.id === following && !person.you) ?? null;
  const file = leader?.file ?? null;

  useEffect(() => {
    if (!following || !file) return;
    let stop: (() => void) | null = null;
    let ended = false;
    void controller.followCursor(file, following).then((stopFollowing) => {
      if (ended) stopFollowing();
      else stop = stopFollowing;
    });
    return () => {
      ended = true;
      stop?.();
    };
  }, [controller, following, file]);

  useEffect(() => {
    if (!following) return;
    const keeps = (event: Event) => event.target instanceof Element && event.target.closest(KEEPS_FOLLOWING);
    const onKey = (event: KeyboardEvent) => {
      if (MODIFIERS.has(event.key)) return;
      if (!keeps(event) || event.key === "Escape") follow(null);
    };
    const onPointer = (event: PointerEvent) => {
      if (!keeps(event)) follow(null);
    };
    document.addEventListener("keydown", onKey, true);
    document.addEventListener("pointerdown", onPointer, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      document.removeEventListener("pointerdown", onPointer, true);
    };
  }, [following, follow]);

  return leader && { id: leader.id, name: leader.name };
}
