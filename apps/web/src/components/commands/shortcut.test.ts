import { describe, expect, it } from "vitest";
import { describeShortcut, matches, parseShortcut } from "./shortcut";

const press = (
  key: string,
  mods: Partial<Record<"ctrlKey" | "metaKey" | "shiftKey" | "altKey", boolean>> = {},
) => ({
  key,
  code: "",
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe("keyboard shortcuts", () => {
  it("reads Mod as Ctrl elsewhere and Cmd on a Mac", () => {
    const quickOpen = parseShortcut("Mod-p");
    expect(matches(quickOpen, press("p", { ctrlKey: true }), false)).toBe(true);
    expect(matches(quickOpen, press("p", { metaKey: true }), true)).toBe(true);
    expect(matches(quickOpen, press("p", { ctrlKey: true }), true)).toBe(false);
    expect(matches(quickOpen, press("p", { ctrlKey: true, shiftKey: true }), false)).toBe(false);
  });

  it("matches a shifted letter whatever its case", () => {
    expect(matches(parseShortcut("Mod-Shift-f"), press("F", { ctrlKey: true, shiftKey: true }), false)).toBe(
      true,
    );
    expect(matches(parseShortcut("Ctrl-`"), press("`", { ctrlKey: true }), true)).toBe(true);
  });

  it("falls back to the physical key when Alt or Shift changes the character typed", () => {
    const macAltB = { ...press("∫", { metaKey: true, altKey: true }), code: "KeyB" };
    expect(matches(parseShortcut("Mod-Alt-b"), macAltB, true)).toBe(true);
    const tilde = { ...press("~", { ctrlKey: true, shiftKey: true }), code: "Backquote" };
    expect(matches(parseShortcut("Ctrl-Shift-`"), tilde, false)).toBe(true);
  });

  it("shows a shortcut the way each platform writes it", () => {
    expect(describeShortcut("Mod-Shift-p", false)).toBe("Ctrl+Shift+P");
    expect(describeShortcut("Mod-Shift-p", true)).toBe("⇧⌘P");
    expect(describeShortcut("Ctrl-`", false)).toBe("Ctrl+`");
    expect(describeShortcut("Mod-Enter", false)).toBe("Ctrl+Enter");
  });
});
