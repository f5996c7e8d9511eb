import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isClientSource } from './lib/client-boundary.mjs';
import { moduleState } from './lib/module-state';
import { repoRoot, sourceFiles } from './lib/source-files';

// Process-wide state is made through singleton() (docs/decisions/047-module-state.md).

describe('module state', () => {
  it('is found: a let, a changed cache, an AsyncLocalStorage; not constants', () => {
    const found = moduleState(
      'x.ts',
      [
        "import { AsyncLocalStorage } from 'node:async_hooks';",
        'let counter = 0;',
        'const cache = new WeakMap<object, string>();',
        'const seen = new Set<string>();',
        'export function see(id: string) { seen.add(id); }',
        "const KINDS = new Set(['a', 'b']);",
        'const FOLDS = new Map<string, string>();',
        "FOLDS.set('ｱ', 'ア');",
        '// module-state: a configured parser, no state between calls',
        'const parser = new Parser();',
        'const context = new AsyncLocalStorage<string>();',
        "const held = singleton('held', () => new Map<string, number>());",
        "const format = new Intl.DateTimeFormat('ja-JP');",
        'export function f() { let local = 1; const m = new Map(); m.set(1, 2); return local + counter; }',
      ].join('\n'),
    );
    expect(found.map((entry) => `${entry.line} ${entry.name}`)).toEqual([
      '2 counter',
      '3 cache',
      '4 seen',
      '11 context',
    ]);
  });

  it('lives in singleton() in all the server may load', () => {
    // The browser's modules (client code, src/components' stores) run once per page instead.
    const files = sourceFiles(['src/server', 'src/lib'], /(?<!\.test)\.tsx?$/)
      .concat('src/env.ts')
      .filter((file) => !file.endsWith('.d.ts'))
      .filter((file) => !isClientSource(fs.readFileSync(path.join(repoRoot, file), 'utf8'), file));
    expect(files).toContain('src/lib/singleton.ts');
    const found = files.flatMap((file) =>
      moduleState(file, fs.readFileSync(path.join(repoRoot, file), 'utf8')).map(
        (entry) => `${file}:${entry.line} ${entry.name}: ${entry.why}`,
      ),
    );
    expect(found).toEqual([]);
  });
});
