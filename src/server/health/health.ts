import 'server-only';

export type Health = { status: 'ok' | 'error'; db: 'ok' | 'error' };

const DB_TIMEOUT_MS = 3000;

/** The health answer: ok when the database answers a query within 3 s. */
export async function checkHealth(
  pingDb: () => Promise<void>,
): Promise<{ httpStatus: 200 | 503; body: Health }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      pingDb(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('database ping timed out')), DB_TIMEOUT_MS);
      }),
    ]);
    return { httpStatus: 200, body: { status: 'ok', db: 'ok' } };
  } catch {
    return { httpStatus: 503, body: { status: 'error', db: 'error' } };
  } finally {
    clearTimeout(timer);
  }
}
