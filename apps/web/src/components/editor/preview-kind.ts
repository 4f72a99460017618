/** Files shown rendered beside their text. */
export type PreviewKind = "markdown" | "svg";

export function previewKindOf(path: string): PreviewKind | undefined {
  if (/\.(md|markdown)$/i.test(path)) return "markdown";
  if (/\.svg$/i.test(path)) return "svg";
  return undefined;
}

/** Binary images the viewer shows instead of "binary file" (SVG is text: it gets a preview). */
export function isImagePath(path: string): boolean {
  return /\.(png|jpe?g|gif|webp)$/i.test(path);
}
