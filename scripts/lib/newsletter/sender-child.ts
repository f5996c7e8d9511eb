/**
 * One newsletter sender process for scripts/newsletter-kill-test.ts: opens the database
 * (NL_DATA_DIR, or DATABASE_URL), runs the sender against NL_SMTP_URL until no letter is
 * queued or being sent, then exits 0. The parent kills the first one with SIGKILL mid-send.
 */
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '@/server/platform/db/client';
import { type ClaimedLetter, newSenderId, runSender } from '@/server/features/newsletter/delivery';
import { smtpLetterTransport } from '@/server/features/newsletter/letter-transport';

const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.NL_DATA_DIR!,
  migrate: false,
});
const compose = (letter: ClaimedLetter) =>
  Promise.resolve({
    to: letter.email,
    subject: 'kill -9',
    text: 'body',
    html: '<p>body</p>',
    headers: { 'X-Letter-Id': letter.id },
  });
const sender = runSender(database.db, {
  senderId: newSenderId(),
  compose,
  transport: smtpLetterTransport(process.env.NL_SMTP_URL!, { from: 'news@example.jp' }),
  ratePerSecond: Number(process.env.NL_RATE ?? 1000),
  batchSize: 20,
  leaseMs: Number(process.env.NL_LEASE_MS ?? 1500),
  idleMs: 200,
});
process.stdout.write('ready\n');
for (;;) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  const [left] = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM newsletter_letters WHERE status IN ('queued', 'sending')`,
  );
  if (Number(left?.n ?? 0) === 0) break;
}
await sender.stop();
await database.close();
process.exit(0);
