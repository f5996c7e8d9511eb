/** The 'use client' boundary (see client-boundary.mjs). */
import type { ESLint } from 'eslint';

/** Whether a parsed module (an ESTree Program) starts with the 'use client' directive. */
export function isClientModule(program: {
  body: ReadonlyArray<{ directive?: string | null }>;
}): boolean;
/** Whether a source file starts with the 'use client' directive. */
export function isClientSource(text: string, filePath: string): boolean;

/** The local ESLint plugin `layers` and its rule `client-imports`. */
declare const plugin: ESLint.Plugin;
export default plugin;
