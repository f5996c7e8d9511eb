import type { BuildOptions, BuildResult } from 'esbuild';

export declare const SERVER_ENTRIES: string[];
export declare const SERVER_OUT_DIR: string;
export declare function serverStaleReason(root: string): string | null;
export declare function compiledEntry(root: string, name: string): string;
export declare function buildOnce(
  esbuild: { build: (options: BuildOptions) => Promise<BuildResult>; stop: () => Promise<void> },
  options: BuildOptions,
): Promise<BuildResult>;
export declare function compileServer(root: string): Promise<void>;
