import path from 'node:path';

/**
 * A migrated PGlite data directory, dumped once per test run and loaded by each test file.
 * Uncompressed: a load then takes about a third less CPU (no gunzip), and test files load it
 * about a hundred times a run.
 */
export const PGLITE_TEMPLATE = path.resolve(
  import.meta.dirname,
  '../../../.tmp/pglite-template.tar',
);
