/**
 * `npm run test:newsletter-kill`: kill -9 a newsletter sender mid-send, start another, and check
 * that no address received two letters and that every letter ended `sent` or `uncertain`
 * (docs/decisions/026-newsletter-queue.md). The database kind follows DATABASE_URL (unset: an
 * embedded PGlite in a temporary directory, whose stale lock the second sender takes over).
 * About 10 s. Exits non-zero when a check fails.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '@/server/platform/db/client';
import { liveLockOwner } from '@/server/platform/db/lock';
import { findEndpoint } from '@/lib/cms/model';
import { DELIVERY_DEFAULTS } from '@/server/features/newsletter/delivery';
import { queueNewsletter } from '@/server/features/newsletter/queue';
import { addReaders } from '../tests/support/newsletter';
import { startSmtpSink } from '../tests/support/smtp-sink';
import { createContent } from '@/server/services/cms/writes';

const READERS = 300;
const root = path.resolve(import.meta.dirname, '..');
const DATABASE_URL = process.env.DATABASE_URL || undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-newsletter-kill-'));
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

const sink = await startSmtpSink({ delayMs: 3, countOnly: true });
const tag = Date.now().toString(36);

// The queue: READERS opted-in readers, one post, one send.
let database = await openDatabase({ databaseUrl: DATABASE_URL, dataDir, migrate: true });
await addReaders(
  database.db,
  Array.from({ length: READERS }, (_, i) => ({ id: `kill-${tag}-${i}` })),
);
await createContent(database.db, findEndpoint('posts')!, {
  id: `kill-${tag}`,
  body: { title: 'kill -9' },
  status: 'publish',
});
const { sendId, queued } = await queueNewsletter(database.db, {
  contentId: `kill-${tag}`,
  segment: 'all',
  requestedBy: null,
});
await database.close(); // the embedded database is one process's at a time
console.log(`${queued} letters queued (${elapsed()})`);

function startSender() {
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'node_modules/tsx/dist/cli.mjs'),
      '--conditions=react-server',
      'scripts/lib/newsletter/sender-child.ts',
    ],
    {
      cwd: root,
      detached: true, // its own process group: the kill takes tsx and node together
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NL_DATA_DIR: dataDir, NL_SMTP_URL: sink.url, NL_LEASE_MS: '1500' },
    },
  );
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, exited };
}

// The first sender is killed with SIGKILL once the mail server has a quarter of the letters.
const first = startSender();
const deadline = Date.now() + 60_000;
while (sink.messages.length < READERS / 4) {
  if (Date.now() > deadline) throw new Error('the first sender sent nothing within 60 s');
  await new Promise((resolve) => setTimeout(resolve, 5));
}
process.kill(-first.child.pid!, 'SIGKILL');
await first.exited;
// tsx runs the sender in a child of its own: that process (the lock's owner) may take a moment
// longer to be gone, as a crashed server is before anything restarts it.
const gone = Date.now() + 10_000;
while (!DATABASE_URL && liveLockOwner(dataDir) && Date.now() < gone)
  await new Promise((resolve) => setTimeout(resolve, 20));
const atKill = sink.messages.length;
console.log(`first sender killed after ${atKill} letters (${elapsed()})`);

// The second takes over once the first's lease ends, and runs until the queue is empty.
const second = startSender();
const code = await second.exited;
if (code !== 0) throw new Error(`the second sender exited with ${code}`);

database = await openDatabase({ databaseUrl: DATABASE_URL, dataDir, migrate: false });
const rows = await queryRows<{ email: string; status: string }>(
  database.db,
  sql`SELECT email, status FROM newsletter_letters WHERE send_id = ${sendId}::uuid`,
);
await database.close();
await sink.close();

const received = sink.countsByAddress();
const failures: string[] = [];
const byStatus = new Map<string, number>();
for (const row of rows) {
  byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + 1);
  const n = received.get(row.email) ?? 0;
  if (row.status === 'sent' && n !== 1) failures.push(`${row.email}: sent, received ${n}`);
  if (row.status === 'uncertain' && n > 1) failures.push(`${row.email}: uncertain, received ${n}`);
  if (row.status !== 'sent' && row.status !== 'uncertain')
    failures.push(`${row.email}: ended ${row.status}`);
}
for (const [address, n] of received) if (n > 1) failures.push(`${address}: received ${n} letters`);
if (rows.length !== READERS) failures.push(`${rows.length} letters, expected ${READERS}`);
const uncertain = byStatus.get('uncertain') ?? 0;
// At most the letters the killed sender had marked `sending` (its letters in flight).
if (uncertain > DELIVERY_DEFAULTS.concurrency)
  failures.push(
    `${uncertain} uncertain letters (at most ${DELIVERY_DEFAULTS.concurrency} were in flight)`,
  );

console.log(
  `${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}: ${[...byStatus].map(([s, n]) => `${s} ${n}`).join(', ')}; ` +
    `${sink.messages.length} messages received, ${received.size} addresses, none twice: ${failures.length === 0} (${elapsed()})`,
);
if (failures.length) {
  console.error(failures.slice(0, 20).join('\n'));
  console.error(`kept: ${dataDir}`);
  process.exit(1);
}
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
