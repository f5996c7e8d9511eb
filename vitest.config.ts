import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = {
  '@': path.resolve(import.meta.dirname, 'src'),
  // Helpers only tests use (databases, sample files, clients): kept out of src.
  '@test-support': path.resolve(import.meta.dirname, 'tests/support'),
  // `server-only` throws outside React's server condition; tests import server modules directly.
  'server-only': path.resolve(import.meta.dirname, 'tests/support/empty-module.ts'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    globals: true,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          globals: true,
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', 'node_modules/**'],
          environment: 'node',
          isolate: false,
          setupFiles: ['./tests/support/fresh-file-state.ts', './vitest.setup.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          globals: true,
          include: ['src/**/*.integration.test.ts', 'scripts/**/*.integration.test.ts'],
          environment: 'node',
          globalSetup: ['./tests/support/db/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One file at a time: PGlite is CPU-heavy and the machine has 2 cores.
          fileParallelism: false,
          // One process for every file: node_modules load once; each file still starts with
          // the environment and app modules as they were (tests/support/fresh-file-state.ts).
          isolate: false,
          setupFiles: ['./tests/support/fresh-file-state.ts'],
        },
      },
    ],
  },
});
