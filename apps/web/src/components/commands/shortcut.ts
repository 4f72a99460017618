/**
 * Keyboard shortcuts written as CodeMirror writes them: modifiers then the key, joined by "-"
 * ("Mod-Shift-p", "Ctrl-`"). `Mod` is Cmd on a Mac and Ctrl elsewhere.
 */
export interface Shortcut {
  mod: boolean;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
  /** The key as KeyboardEvent.key reports it, lower case. */
  key: string;
}

export function parseShortcut(spec: string): Shortcut {
  const parts = spec.split("-");
  // A trailing "-" names the minus key itself ("Mod--").
  const key = (spec.endsWith("--") ? "-" : (parts.at(-1) ?? "")).toLowerCase();
  const mods = new Set(parts.slice(0, spec.endsWith("--") ? -2 : -1));
  return {
    mod: mods.has("Mod"),
    ctrl: mods.has("Ctrl"),
    shift: mods.has("Shift"),
    alt: mods.has("Alt"),
    key,
  };
}

export interface KeyPress {
  key: string;
  /** The physical key ("KeyP", "Backquote"): what a shortcut falls back to when Alt or a layout changes `key`. */
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** Whether a key press is the shortcut, on a Mac (`Mod` = Cmd) or elsewhere (`Mod` = Ctrl). */
export function matches(shortcut: Shortcut, press: KeyPress, mac: boolean): boolean {
  const wantMeta = mac && shortcut.mod;
  const wantCtrl = shortcut.ctrl || (!mac && shortcut.mod);
  return (
    (press.key.toLowerCase() === shortcut.key || keyOfCode(press.code) === shortcut.key) &&
    press.metaKey === wantMeta &&
    press.ctrlKey === wantCtrl &&
    press.shiftKey === shortcut.shift &&
    press.altKey === shortcut.alt
  );
}

const CODE_KEYS: Readonly<Record<string, string>> = {
  Backquote: "`",
  Backslash: "\\",
  Slash: "/",
  Period: ".",
};

/** The unshifted US key of a physical key code ("KeyP" → "p"), or undefined. */
function keyOfCode(code: string): string | undefined {
  const letter = /^Key([A-Z])$/.exec(code)?.[1] ?? /^Digit(\d)$/.exec(code)?.[1];
  return letter?.toLowerCase() ?? CODE_KEYS[code];
}

/** How a shortcut is shown: "Ctrl+Shift+P" elsewhere, "⇧⌘P" on a Mac. */
export function describeShortcut(spec: string, mac: boolean): string {
  const s = parseShortcut(spec);
  const key = s.key.length === 1 ? s.key.toUpperCase() : s.key[0]?.toUpperCase() + s.key.slice(1);
  if (mac) {
    return `${s.ctrl ? "⌃" : ""}${s.alt ? "⌥" : ""}${s.shift ? "⇧" : ""}${s.mod ? "⌘" : ""}${key}`;
  }
  const names = [s.ctrl || s.mod ? "Ctrl" : "", s.shift ? "Shift" : "", s.alt ? "Alt" : "", key];
  return names.filter(Boolean).join("+");
}

/** Whether the page runs on a Mac (Cmd is the command key there). */
export function isMac(): boolean {
  return (
    typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)
  );
}
