"use client";

import { type RefObject, useLayoutEffect, useState } from "react";

/** Where `element`'s right edge is on the screen (px), kept up to date as it or the window resizes. */
export function useRightEdge(element: RefObject<HTMLElement | null>): number {
  const [right, setRight] = useState(0);
  useLayoutEffect(() => {
    const target = element.current;
    if (!target) return;
    const measure = () => setRight(target.getBoundingClientRect().right);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(target);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, [element]);
  return right;
}
