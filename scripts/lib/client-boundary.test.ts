import path from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import layers, { isClientSource } from './client-boundary.mjs';

const root = path.resolve(import.meta.dirname, '../..');
// Files the project's config must treat by their directive, whatever they are called.
const NAMES = [
  'src/app/error.tsx',
  'src/components/admin/content/rich-text/slash-menu.tsx',
  'src/components/media/use-media-state.ts',
  'src/components/ui/use-leaving-state.client.ts',
  'src/components/anything/new-file.tsx',
];
const FORBIDDEN = [
  "import { db } from '@/server/platform/db/client';",
  "import type { Viewer } from '@/server/access/viewer';",
  "import { x } from '../../../server/x';",
  "import 'server-only';",
  "import { readFileSync } from 'node:fs';",
  "import { join } from 'path';",
  "export { y } from '@/server/y';",
  "const lazy = () => import('@/server/z');",
].join('\n');
const ALLOWED = [
  "import type { Readable } from 'node:stream';",
  "import { type Writable } from 'node:stream';",
  "import { useState } from 'react';",
  "import { roleLabel } from '@/lib/identity/roles';",
  "import { Button } from './button.client';",
].join('\n');

/** The same imports under different openings: a client module only by its prologue. */
const CASES: Array<[label: string, opening: string, client: boolean]> = [
  ['the directive, double quotes', '"use client";', true],
  ['the directive, single quotes, no semicolon', "'use client'", true],
  [
    'the directive after comments',
    "// The editor's toolbar.\n/* 'use server' */\n'use client';",
    true,
  ],
  ['the directive after another one', "'use strict';\n'use client';", true],
  ['only a line comment', "// 'use client'", false],
  ['only a block comment', "/* 'use client' */", false],
  ['a later string', "const mode = 'use client';", false],
  ['the directive after an import', "import 'react';\n'use client';", false],
  ['a parenthesised string', "('use client');", false],
  ['a template literal', '`use client`;', false],
  ['another directive only', "'use server';", false],
];

describe('the use client boundary', () => {
  let options: Linter.RuleEntry;
  beforeAll(async () => {
    const config = (await new ESLint({ cwd: root }).calculateConfigForFile(NAMES[0]!)) as {
      rules: Record<string, Linter.RuleEntry>;
    };
    options = config.rules['layers/client-imports']!;
  });
  const lint = (code: string, filename: string) =>
    new Linter({ configType: 'flat' }).verify(
      code,
      [
        {
          files: ['**/*.ts', '**/*.tsx'],
          languageOptions: { parser: tseslint.parser },
          plugins: { layers },
          rules: { 'layers/client-imports': options },
        },
      ],
      { filename: path.join(root, filename) },
    );

  it('is applied by the project config to every file under src, whatever its name', async () => {
    const eslint = new ESLint({ cwd: root });
    for (const name of NAMES) {
      const config = (await eslint.calculateConfigForFile(name)) as {
        rules: Record<string, Linter.RuleEntry>;
      };
      expect(config.rules['layers/client-imports'], name).toEqual(options);
    }
    expect(Array.isArray(options) && options[0]).toBe(2);
  });

  it.each(CASES)('%s: client code = %s', (_label, opening, client) => {
    const code = `${opening}\n${FORBIDDEN}\n${ALLOWED}\n`;
    for (const filename of ['src/components/admin/content/rich-text/toolbar-extra.tsx', 'x.ts']) {
      expect(isClientSource(code, filename)).toBe(client);
    }
    const reported = lint(code, 'src/components/admin/content/rich-text/toolbar-extra.tsx');
    expect(reported.every((m) => m.ruleId === 'layers/client-imports')).toBe(true);
    // Each forbidden import once, on its own line; none of the allowed ones.
    const lines = reported.map((m) => m.line - opening.split('\n').length);
    expect(lines).toEqual(client ? FORBIDDEN.split('\n').map((_, i) => i + 1) : []);
  });

  it('names the layer rule it enforces', () => {
    const [message] = lint(`'use client';\n${FORBIDDEN}`, 'src/app/global-error.tsx');
    expect(message?.message).toContain("'@/server/platform/db/client'");
    expect(message?.message).toContain('docs/decisions/014-layers.md');
  });
});
