import { describe, expect, it } from 'vitest';
import { pingDatabase } from '@/server/platform/db/client';
import { createTestDatabase } from '@test-support/db/test-database';
import { checkHealth } from './health';

describe('health', () => {
  it('is ok while the database answers and 503 once it does not', async () => {
    const database = await createTestDatabase();
    expect(await checkHealth(() => pingDatabase(database.db))).toEqual({
      httpStatus: 200,
      body: { status: 'ok', db: 'ok' },
    });
    await database.close();
    expect(await checkHealth(() => pingDatabase(database.db))).toEqual({
      httpStatus: 503,
      body: { status: 'error', db: 'error' },
    });
  });

  it('answers 503 at once while the database is known to be down, without a query', async () => {
    const started = Date.now();
    let pinged = false;
    const result = await checkHealth(
      () => {
        pinged = true;
        return new Promise(() => {}); // what a ping to an unanswering server does
      },
      () => false,
    );
    expect(result).toEqual({ httpStatus: 503, body: { status: 'error', db: 'error' } });
    expect(pinged).toBe(false);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('answers 503 when the database hangs', async () => {
    const result = await checkHealth(() => new Promise(() => {}));
    expect(result.httpStatus).toBe(503);
  }, 10_000);
});
