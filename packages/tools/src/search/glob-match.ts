import picomatch from "picomatch";

/**
 * A matcher with ripgrep's `--glob` meaning: a pattern without a slash matches a file's name at any
 * depth (`*.ts`); one with a slash matches the whole path relative to the search folder
 * (`src/**\/*.ts`). Dotfiles match like any other name.
 */
export function compileGlob(pattern: string): (relative: string) => boolean {
  const trimmed = pattern.replace(/^\.\//, "");
  const isMatch = picomatch(trimmed, { dot: true, basename: !trimmed.includes("/") });
  return (relative) => isMatch(relative);
}
