export function imageId(ref: string): Promise<string | null>;
export function imageSize(ref: string): Promise<number>;
export function formatBytes(bytes: number): string;
export function removeOlderImages(name: string, keep: string, now?: number): Promise<number>;
