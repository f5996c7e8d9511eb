import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '.next/**',
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
    // Gating happens where items are read (src/server/access/read.ts) and lists choose their
    // fields (src/server/content/lists.ts): pages and components cannot reach past them.
    files: [
      'src/app/**/page.tsx',
      'src/app/**/layout.tsx',
      'src/app/**/not-found.tsx',
      'src/app/**/error.tsx',
      'src/components/**',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // The finders, the content clients, the store and the schema (the sanitiser of
              // rich text is not one of them).
              regex: '^@/server/(content/(items|client|site-content)|cms/(?!richtext/)|db/schema)',
              allowTypeImports: true,
              message:
                'Pages and components read items through src/server/access/read.ts and lists through src/server/content/lists.ts, where access is decided.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
