// Types for base-image.mjs.
export const LOCAL_BASE_IMAGE: string;
export function ensureBaseImage(): Promise<string>;
export function aptMirror(sourceTexts: string[]): string;
export function debootstrapImage(tag: string): Promise<void>;
