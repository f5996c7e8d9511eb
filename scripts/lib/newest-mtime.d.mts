/** The newest modification time under a path (see newest-mtime.mjs). */
export function newestMtime(target: string): number;
