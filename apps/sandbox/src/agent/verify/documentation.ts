const DOC_EXTENSIONS = [".md", ".mdx", ".txt", ".rst", ".adoc"];

/** Whether a workspace path is documentation: under docs/, or a prose file. */
export function isDocumentation(file: string): boolean {
  const lower = file.toLowerCase();
  return lower.startsWith("docs/") || DOC_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** Whether every changed path is documentation (nothing a check command could break). */
export const onlyDocumentation = (files: readonly string[]): boolean => files.every(isDocumentation);
