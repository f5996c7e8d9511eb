import path from 'node:path';

/** A migrated PGlite data directory, dumped once per test run and loaded by each test file. */
export const PGLITE_TEMPLATE = path.resolve(
  import.meta.dirname,
  '../../../.tmp/pglite-template.tar.gz',
);
