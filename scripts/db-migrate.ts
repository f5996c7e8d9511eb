/** `npm run db:migrate`: applies the SQL migrations of drizzle/ to the configured database. */
import { env } from '@/env';
import { openDatabase } from '@/server/platform/db/client';

const config = env();
const started = Date.now();
openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, migrate: true })
  .then(async (database) => {
    await database.close();
    console.log(
      `migrations applied to ${database.kind} database (${database.location}) in ${Date.now() - started} ms`,
    );
  })
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
