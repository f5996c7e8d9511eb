import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, sourceFiles } from './lib/source-files';

/**
 * No source file over 700 lines, stylesheets included: past that a file holds more than one
 * thing, and a reader can no longer keep it in view. Split it by responsibility (a folder with
 * one module per part, as src/lib/json-ld/ is) rather than raising the limit.
 */
const MAX_LINES = 700;

const SCANNED_DIRS = ['src', 'scripts', 'bench', 'tests'];
const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|css)$/;

function lineCount(file: string): number {
  const text = fs.readFileSync(path.join(repoRoot, file), 'utf8');
  // As `wc -l` counts: a final newline ends the last line, it does not start another.
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('source files', () => {
  const files = sourceFiles(SCANNED_DIRS, SOURCE);
  const lengths = new Map(files.map((file) => [file, lineCount(file)]));

  it('are scanned, stylesheets included', () => {
    expect(files).toContain('scripts/file-length.test.ts');
    expect(files.some((file) => file.endsWith('.module.css'))).toBe(true);
  });

  it(`are at most ${MAX_LINES} lines long`, () => {
    const long = [...lengths]
      .filter(([, lines]) => lines > MAX_LINES)
      .map(([file, lines]) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
