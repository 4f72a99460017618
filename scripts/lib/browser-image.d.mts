// Types for browser-image.mjs.
export const BROWSER_IMAGE_SOURCE: string;
export const BROWSER_IMAGE_NAME: string;
export const PLAYWRIGHT_CORE: string;
export function ensureBrowserImage(baseImage: string): Promise<string>;
