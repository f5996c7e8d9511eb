import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrateEmbedded } from '@/server/db/migrate';
import * as schema from '@/server/db/schema';
import { PGLITE_TEMPLATE } from './template';

/**
 * Creating a PGlite database takes seconds; loading a dump takes under one. The integration
 * project migrates one embedded database and every test file starts from a copy of it.
 * With DATABASE_URL set, test files create their own databases on that server instead.
 */
export default async function setup(): Promise<void> {
  if (process.env.DATABASE_URL) return;
  const client = await PGlite.create({ extensions: { pg_trgm } });
  await migrateEmbedded(drizzle({ client, schema }));
  const dump = await client.dumpDataDir('gzip');
  await client.close();
  fs.mkdirSync(path.dirname(PGLITE_TEMPLATE), { recursive: true });
  fs.writeFileSync(PGLITE_TEMPLATE, Buffer.from(await dump.arrayBuffer()));
}
