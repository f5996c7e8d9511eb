import { builtinModules } from 'node:module';
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import layers from './scripts/lib/client-boundary.mjs';

/** Pages and components read content only where access is decided. */
const GATED = {
  // The finders and the content clients (also through the content feature's index.ts), the
  // content service and the schema.
  regex:
    '^@/server/(features/content(/(items|client|site-content))?$|services/cms(/|$)|platform/db/schema)',
  allowTypeImports: true,
  message:
    'Pages and components read items through src/server/features/access/read.ts and lists through src/server/features/content/lists.ts, where access is decided.',
};
// Each layer by its alias and by a relative path that climbs into it.
const NO_SERVER = {
  regex: '^(@/server(/|$)|(\\.\\./)+server(/|$))',
  message:
    'Client code and src/lib import nothing from src/server: what both sides need lives in src/lib/<area>/ (docs/decisions/014-layers.md).',
};
// What a client module would ship to the browser, where it cannot run.
const NO_SERVER_ONLY = {
  regex: '^server-only$',
  message: "'server-only' fails the build in client code: the module belongs in src/server.",
};
const NO_NODE_BUILT_INS = {
  regex: `^(node:|(${builtinModules.join('|')})(/|$))`,
  allowTypeImports: true,
  message: 'Client code runs in the browser, which has no Node built-ins.',
};
const NO_COMPONENTS = {
  regex: '^(@/components(/|$)|(\\.\\./)+components(/|$))',
  message:
    'src/server imports nothing from src/components: move what both need to src/lib/<area>/, and rendering to src/app or src/components (docs/decisions/014-layers.md).',
};
const NO_COMPONENTS_FROM_LIB = {
  ...NO_COMPONENTS,
  message:
    'src/lib is pure and imports nothing from src/components (docs/decisions/014-layers.md).',
};
const NO_APP = {
  regex: '^(@/app(/|$)|(\\.\\./)+app(/|$))',
  message:
    'Only the framework imports src/app: nothing in src/lib, src/server or src/components does.',
};

export default tseslint.config(
  {
    ignores: [
      '.next/**',
      'dist/**',
      'node_modules/**',
      '.data/**',
      '.tmp/**',
      'bench/tools/**',
      'next-env.d.ts',
      'playwright-report/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@next/next': nextPlugin, 'react-hooks': reactHooks },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through src/env.ts.' },
      ],
    },
  },
  {
    // The only readers of process.env: the env module, the framework hooks and the tooling configs.
    files: [
      'src/env.ts',
      'src/instrumentation.ts',
      '*.config.ts',
      '*.config.mjs',
      'scripts/**',
      'tests/**',
      '**/*.test.ts',
      '**/*.test.tsx',
      'bench/**',
      'vitest.setup.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Gating happens where items are read (src/server/features/access/read.ts) and lists choose their
    // fields (src/server/features/content/lists.ts): pages and components cannot reach past them.
    files: [
      'src/app/**/page.tsx',
      'src/app/**/layout.tsx',
      'src/app/**/not-found.tsx',
      'src/app/**/error.tsx',
    ],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [GATED] }] },
  },
  // The layers (docs/decisions/014-layers.md): src/lib is pure and shared by everything;
  // src/server and src/components each build on it and never on each other's side; src/app
  // puts them together. Later blocks replace earlier ones for the files they name, so each
  // lists every pattern its files obey. scripts/check-imports.ts adds what needs the whole
  // graph: no circles, and nothing a client module imports (even indirectly) is in src/server.
  {
    files: ['src/components/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [GATED, NO_APP] }] },
  },
  {
    files: ['src/server/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NO_COMPONENTS, NO_APP] }],
    },
  },
  {
    // A test may call a route handler of src/app to check what the framework answers.
    files: ['src/server/**/*.test.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NO_COMPONENTS] }] },
  },
  {
    files: ['src/lib/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [NO_SERVER, NO_COMPONENTS_FROM_LIB, NO_APP] },
      ],
    },
  },
  {
    // Client code is whatever starts with the 'use client' directive, whatever its file's name
    // (error.tsx, rich-text/*.tsx, use-*.ts): the rule reads the directive as Next.js does and
    // adds these patterns to those of the file's directory above.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { layers },
    rules: {
      'layers/client-imports': ['error', [NO_SERVER, NO_SERVER_ONLY, NO_NODE_BUILT_INS]],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The plain-JavaScript launcher of the compiled server (scripts/launch.mjs) runs in Node.
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
