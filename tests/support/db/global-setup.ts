import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '@/server/platform/db/client';
import { migrateEmbedded } from '@/server/platform/db/migrate';
import * as schema from '@/server/platform/db/schema';
import { databaseUrl, serverQuery } from './postgres-server';
import { PGLITE_TEMPLATE } from './template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** With DATABASE_URL: the migrated database each test file's database is copied from. */
    postgresTemplate: string;
  }
}

/**
 * Creating a database and migrating it takes seconds; copying a migrated one takes under one.
 * The integration project migrates one database and every test file starts from a copy of it:
 * a dump of an embedded PGlite, or, with DATABASE_URL set, a template database on that server
 * (`CREATE DATABASE … TEMPLATE`), dropped when the run ends.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const template = `axis_test_template_${process.pid}`;
    await serverQuery(serverUrl, `DROP DATABASE IF EXISTS "${template}"`);
    await serverQuery(serverUrl, `CREATE DATABASE "${template}"`);
    const database = await openDatabase({
      databaseUrl: databaseUrl(serverUrl, template),
      dataDir: 'unused',
    });
    await database.close();
    // Autovacuum visits a freshly migrated database (its catalogs changed a lot), and CREATE
    // DATABASE … TEMPLATE fails while any session, autovacuum's too, is in the template (it
    // waits five seconds for one to stop: not always enough on two busy cores). Vacuumed and
    // analysed now, the template gives autovacuum nothing to do.
    await serverQuery(databaseUrl(serverUrl, template), 'VACUUM ANALYZE');
    project.provide('postgresTemplate', template);
    return () => serverQuery(serverUrl, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  }
  const client = await PGlite.create({ extensions: { pg_trgm } });
  await migrateEmbedded(drizzle({ client, schema }));
  const dump = await client.dumpDataDir('none');
  await client.close();
  fs.mkdirSync(path.dirname(PGLITE_TEMPLATE), { recursive: true });
  fs.writeFileSync(PGLITE_TEMPLATE, Buffer.from(await dump.arrayBuffer()));
}
