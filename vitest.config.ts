import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = {
  '@': path.resolve(import.meta.dirname, 'src'),
  // Helpers only tests use (databases, sample files, clients): kept out of src.
  '@test-support': path.resolve(import.meta.dirname, 'tests/support'),
  // `server-only` throws outside React's server condition; tests import server modules directly.
  'server-only': path.resolve(import.meta.dirname, 'tests/support/empty-module.ts'),
};

/**
 * Integration files about the embedded database's data directory or the launcher alone: they
 * open PGlite (or no database) whatever DATABASE_URL says, so the PostgreSQL run (CI's second
 * lane, scripts/with-postgres.sh) would only repeat them.
 */
const EMBEDDED_ONLY = [
  'src/server/platform/db/lock.integration.test.ts',
  'src/server/platform/db/data-dir-modes.integration.test.ts',
  'scripts/start.integration.test.ts',
];

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
          exclude: ['node_modules/**', ...(process.env.DATABASE_URL ? EMBEDDED_ONLY : [])],
          environment: 'node',
          globalSetup: ['./tests/support/db/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two files at once (each has its own database and temporary directories); vitest's
          // default is one less than the cores, one file at a time on two. Many files wait on
          // timers, sockets and child processes, and the second file uses that time. Measured
          // on two cores, the files on PGlite: the same CPU (202 s), about half the wall time.
          // The unit files stay one at a time: side by side they cost a fifth more CPU (each
          // process sets up its own environments) for no wait to fill. Projects with different
          // worker counts run one after the other (groupOrder): the unit files first.
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          // One process per worker for all its files: node_modules load once; each file still
          // starts with the environment and app modules as they were
          // (tests/support/fresh-file-state.ts).
          isolate: false,
          setupFiles: ['./tests/support/fresh-file-state.ts'],
        },
      },
    ],
  },
});
