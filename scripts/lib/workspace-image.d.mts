// Types for workspace-image.mjs.
export const IMAGE_SOURCE: string;
export const IMAGE_NAME: string;
export const BASH_LANGUAGE_SERVER: string;
export function imageTag(contentHash: string): string;
export function prepareContext(options?: {
  sourceDir?: string;
  contextDir?: string;
  daemonEntry?: string;
}): Promise<string[]>;
export function contextHash(contextDir: string, entries: string[], baseImage: string): Promise<string>;
export function ensureWorkspaceImage(baseImage: string, options?: { daemonEntry?: string }): Promise<string>;
