/**
 * `npm run bench:newsletter`: the newsletter queue and sender in process, on a fresh embedded
 * PGlite (DATABASE_URL for a PostgreSQL server), against a local SMTP server (smtp-server):
 * - queue time: BENCH_READERS opted-in readers (default 10,000; a quarter paid) queued for one
 *   post in one send (goal ≤ 5 s);
 * - send rate: every letter rendered (the site's letter: HTML and text, unsubscribe link, open
 *   parameter) and handed over SMTP through the pooled transport, the rate setting raised to
 *   BENCH_RATE (default 1,000/s) so the machine is what limits it (goal ≥ 200 letters/s);
 * - memory: the process's RSS sampled every 250 ms through the run (goal: flat, no growth with
 *   the number of letters sent).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import { openDatabase, useDatabase as setAppDatabase } from '@/server/platform/db/client';
import { deliverRound } from '@/server/features/newsletter/delivery';
import { smtpLetterTransport } from '@/server/features/newsletter/letter-transport';
import { newsletterSendStatus, queueNewsletter } from '@/server/features/newsletter/queue';
import { createLetterComposer } from '@/server/features/newsletter/sender';
import { addReaders } from '../tests/support/newsletter';
import { createContent } from '@/server/services/cms/writes';

type SinkReport = {
  messages: number;
  addresses: number;
  twice: number;
  bytes: number;
  cpuSeconds: number;
};

const READERS = Number(process.env.BENCH_READERS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 1_000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-newsletter-'));
process.env.DATA_DIR = dataDir; // the app secret (unsubscribe links) and anything else on disk
process.env.APP_SECRET ??= 'bench-'.repeat(8);

const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir,
  migrate: true,
});
setAppDatabase(database); // the letter reads the post through the site's content client
const { db } = database;
// The SMTP server runs in its own process, as a real one would.
const sinkProcess = fork(path.join(import.meta.dirname, 'smtp-sink-process.ts'), {
  execArgv: ['--import', 'tsx'],
});
const sinkPort = await new Promise<number>((resolve) =>
  sinkProcess.once('message', (m) => resolve((m as { port: number }).port)),
);
const sinkUrl = `smtp://127.0.0.1:${sinkPort}`;

const body = Array.from(
  { length: 12 },
  (_, i) =>
    `<h2>見出し ${i + 1}</h2><p>${'デザインの現場から届いた話を、写真と一緒に読む。'.repeat(6)}</p>`,
).join('');
await createContent(db, findEndpoint('posts')!, {
  id: 'bench-letter',
  status: 'publish',
  body: {
    title: 'ベンチマークの記事',
    description: 'ニュースレターで配信する記事',
    isPublicPreview: false,
    body: `${body}${MEMBERS_DIVIDER.html}${body}`,
  },
});
const setupStarted = performance.now();
await addReaders(
  db,
  Array.from({ length: READERS }, (_, i) => ({
    id: `bench-reader-${i}`,
    plan: i % 4 === 0 ? 'active' : undefined,
  })),
);
console.log(
  `${READERS} readers on ${database.kind} (${((performance.now() - setupStarted) / 1000).toFixed(1)} s to create)`,
);

const samples: number[] = [];
const sampler = setInterval(() => samples.push(process.memoryUsage().rss), 250);

const queueStarted = performance.now();
const { sendId, queued } = await queueNewsletter(db, {
  contentId: 'bench-letter',
  segment: 'all',
  requestedBy: null,
});
const queueSeconds = (performance.now() - queueStarted) / 1000;

const transport = smtpLetterTransport(sinkUrl, { from: 'AXIS <news@bench.example>' });
const options = {
  senderId: 'bench',
  compose: createLetterComposer({ siteUrl: 'https://axis.example.jp' }),
  transport,
  ratePerSecond: RATE,
};
const sendStarted = performance.now();
const cpuStarted = process.cpuUsage();
let rounds = 0;
for (;;) {
  const round = await deliverRound(db, options);
  rounds++;
  if (round.claimed === 0) break;
}
const sendSeconds = (performance.now() - sendStarted) / 1000;
const cpu = process.cpuUsage(cpuStarted);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
clearInterval(sampler);
transport.close?.();

const status = await newsletterSendStatus(db, sendId);
const sink = await new Promise<SinkReport>((resolve) => {
  sinkProcess.once('message', (m) => resolve(m as SinkReport));
  sinkProcess.send('report');
});
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const during = samples.slice(Math.floor(samples.length / 10)); // after the first tenth: warm
const third = Math.max(1, Math.floor(during.length / 3));
const early = Math.max(...during.slice(0, third));
const late = Math.max(...during.slice(-third));
console.log(
  [
    `queue: ${queued} letters in ${queueSeconds.toFixed(2)} s (goal ≤ 5 s)`,
    `send: ${status.sent} sent, ${status.failed} failed, ${status.uncertain} uncertain in ${sendSeconds.toFixed(1)} s = ${Math.round(status.sent / sendSeconds)} letters/s over ${rounds} rounds (goal ≥ 200/s; rate setting ${RATE}/s), ${Math.round(sink.bytes / Math.max(1, sink.messages) / 1024)} KB a letter`,
    `sender CPU: ${cpuSeconds.toFixed(1)} s for the send = ${((cpuSeconds * 1000) / Math.max(1, status.sent)).toFixed(2)} ms a letter (${Math.round(status.sent / cpuSeconds)} letters per CPU second; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`,
    `smtp server (its own process): ${sink.messages} messages, ${sink.addresses} addresses, ${sink.twice} received twice; ${sink.cpuSeconds.toFixed(1)} s of CPU in all`,
    `memory (RSS, ${samples.length} samples): min ${mib(Math.min(...samples))} MiB, max ${mib(Math.max(...samples))} MiB; peak in the first third of the send ${mib(early)} MiB, in the last third ${mib(late)} MiB`,
  ].join('\n'),
);
process.exit(status.sent === READERS && sink.twice === 0 ? 0 : 1);
