/**
 * The path the URL bar asks for, as `preview.open` takes it: always from the root of the port's
 * origin (a typed "about" is "/about"), and only a path: a full URL typed there keeps its path
 * and query, never its host. A fragment never reaches a server, so it is left out.
 */
export function previewPath(typed: string): string {
  const text = typed.trim();
  if (text === "") return "/";
  try {
    const url = new URL(text, "http://preview.invalid/");
    return `${url.pathname}${url.search}`;
  } catch {
    return "/";
  }
}
