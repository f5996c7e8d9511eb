/**
 * `npm run test:crash`: kill -9 during a stream of writes, then restart on the same database.
 * One production instance takes sign-ups, bookmarks, content edits and creations (content API)
 * and billing webhooks, several of each at once; the whole process group is killed (SIGKILL)
 * at a random moment 3-6 s in; the server is started again on the same data (DATA_DIR for the
 * embedded database, whose stale lock it takes over; DATABASE_URL for a server). Then:
 *   - every write answered 2xx (or 303) is in the database with its value;
 *   - nothing is half-written (users without profiles, content whose history disagrees, …);
 *   - the site serves normally (health, the edited posts' pages, the reader's session).
 * The database kind follows DATABASE_URL (unset: embedded PGlite). Needs the production build
 * (`npm run build`); never builds. CRASH_SEED=<n> replays a run's choices and kill moment.
 * Exits non-zero when a check fails, keeping the temporary directory: the server's log
 * (server.log) and every write sent with its outcome (writes.json). CRASH_KEEP=1 keeps it anyway.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '@/server/platform/db/client';
import { settingsOnBuiltSiteUrl, staleBuildReason } from './lib/build-freshness';
import { Ledger, WRITE_KINDS, allowedValues } from './lib/crash/ledger';
import { seededRandom } from './lib/seeded-random';
import { freePort } from './lib/free-port';
import {
  type Server,
  groupAlive,
  signalGroup,
  sleep,
  startServer,
  stopServer,
  waitForHealth,
} from './lib/crash/server-process';
import { verifyDatabase } from './lib/crash/verify-database';
import { retryCutSignUps, runStreams } from './lib/crash/write-streams';

const root = path.resolve(import.meta.dirname, '..');
const DATABASE_URL = process.env.DATABASE_URL || undefined;
const kind = DATABASE_URL ? 'PostgreSQL' : 'PGlite';
const seed = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : randomInt(2 ** 31);
if (!Number.isSafeInteger(seed) || seed < 0) {
  console.error(
    'CRASH_SEED は 0 以上の整数で指定してください (CRASH_SEED must be an integer ≥ 0).',
  );
  process.exit(2);
}
const random = seededRandom(seed);
const killAfterMs = 3000 + Math.floor(random() * 3000);
const tag = seed.toString(36);
const START_TIMEOUT_MS = 180_000;

const buildSettings = settingsOnBuiltSiteUrl(root);
const staleReason = staleBuildReason(root, buildSettings);
if (staleReason) {
  console.error(
    `本番ビルドが必要です (${staleReason})。先に npm run build を実行してください。` +
      ' / The production build is missing or stale: run `npm run build` first.',
  );
  process.exit(2);
}
// The build's own SITE_URL: the server then has no reason to rebuild.
const SITE_URL = buildSettings.SITE_URL;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-crash-'));
const DATA_DIR = path.join(work, 'data');
const LOG = path.join(work, 'server.log');
const port = await freePort();
const BASE = `http://127.0.0.1:${port}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR,
  SITE_URL,
  PORT: String(port),
  APP_SECRET: randomBytes(32).toString('hex'),
  TRUST_PROXY: 'true',
  BILLING_SANDBOX: 'true',
  // The stream writes faster than the content API's default 10 writes per second per key.
  CMS_RATE_LIMIT_WRITE: '100000',
  OPERATOR_NAME: '株式会社クラッシュ試験',
  OPERATOR_REPRESENTATIVE: '試験 太郎',
  OPERATOR_EMAIL: 'crash@example.jp',
  OPERATOR_DISCLOSE_ON_REQUEST: 'true',
  NEXT_TELEMETRY_DISABLED: '1',
};

const passed: string[] = [];
const failures: string[] = [];
function check(ok: boolean, what: string, detail = ''): void {
  console.log(`${ok ? '✓' : '✗'} ${what}${detail ? ` (${detail})` : ''}`);
  (ok ? passed : failures).push(what);
}

let server: Server | null = null;
process.on('exit', () => {
  if (server && groupAlive(server.pid)) signalGroup(server, 'SIGKILL');
  if (failures.length === 0 && !process.env.CRASH_KEEP)
    fs.rmSync(work, { recursive: true, force: true });
  else console.log(`[crash] 一時ディレクトリとログを残しました / kept: ${work} (server.log)`);
});
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { cwd: root, env, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout.trim();
}
const admin = (...args: string[]) => run('npm', ['run', '-s', 'admin', '--', ...args]).split('\n');

async function start(why: string): Promise<number> {
  fs.appendFileSync(LOG, `\n===== [crash-test] start: ${why} =====\n`);
  server = startServer(root, env, LOG);
  return waitForHealth(BASE, server, START_TIMEOUT_MS);
}

/** The app's own way of opening the database (embedded: only while no server holds it). */
async function withDatabase<T>(
  read: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>,
): Promise<T> {
  const database = await openDatabase({
    databaseUrl: DATABASE_URL,
    dataDir: DATA_DIR,
    migrate: false,
  });
  try {
    return await read(database.db);
  } finally {
    await database.close();
  }
}

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0])
    .join('; ');

async function main(): Promise<void> {
  console.log(
    `[crash] ${kind}, seed ${seed} (CRASH_SEED=${seed} で再現 / to replay), kill after ${killAfterMs} ms, dir ${work}`,
  );
  // ---- prepare ----
  if (DATABASE_URL)
    run(process.execPath, ['--conditions=react-server', 'scripts/launch.mjs', 'seed']);
  const firstStartMs = await start('first start (demo content, billing sandbox)');
  console.log(`[crash] server on :${port} (first start ${firstStartMs} ms)`);
  const reader = { email: `crash-reader-${tag}@example.jp`, password: `Kumo-Sora-Reader-${tag}!` };
  admin(
    'create-user',
    '--email',
    reader.email,
    '--password',
    reader.password,
    '--name',
    '試験読者',
  );
  const apiKey = admin(
    'create-api-key',
    '--name',
    `crash-${tag}`,
    '--permissions',
    'GET,PATCH,POST',
  ).at(-1)!;
  // PGlite admits one process: the server is stopped while the test reads the database.
  if (!DATABASE_URL) await stopServer(server!, 'SIGTERM');
  const { webhookSecret, readerId } = await withDatabase(async (db) => {
    const [secret] = await queryRows<{ value: string }>(
      db,
      sql`SELECT value FROM billing_sandbox_settings WHERE name = 'app_webhook_secret'`,
    );
    const [user] = await queryRows<{ id: string }>(
      db,
      sql`SELECT id FROM "user" WHERE email = ${reader.email}`,
    );
    return { webhookSecret: secret?.value, readerId: user?.id };
  });
  if (!webhookSecret) throw new Error('the billing sandbox webhook secret is not set up');
  if (!readerId) throw new Error('the reader made with create-user is missing');
  if (!DATABASE_URL) await start('again after reading the database');

  const signIn = await fetch(`${BASE}/api/account/sign-in`, {
    method: 'POST',
    headers: { origin: SITE_URL, accept: 'application/json', 'x-forwarded-for': '10.255.0.1' },
    body: new URLSearchParams(reader),
  });
  const readerCookie = cookiesOf(signIn);
  if (!signIn.ok || !readerCookie) throw new Error(`sign-in failed: ${signIn.status}`);

  const listed = (await (
    await fetch(`${BASE}/api/v1/posts?limit=40&fields=id,title`, {
      headers: { 'x-microcms-api-key': apiKey },
    })
  ).json()) as { contents: { id: string; title: string }[] };
  const posts = [...listed.contents].sort(() => random() - 0.5);
  if (posts.length < 15) throw new Error(`15 published posts are needed, found ${posts.length}`);
  const initialTitles = new Map(posts.map((p) => [`posts:${p.id}`, p.title]));
  const ids = posts.map((p) => p.id);
  const plan = {
    bookmarkPosts: [ids.slice(0, 3), ids.slice(3, 6), ids.slice(6, 9)],
    editPosts: [ids.slice(9, 11), ids.slice(11, 13), ids.slice(13, 15)],
    signUpWorkers: 3,
    createWorkers: 2,
    webhookWorkers: 3,
  };

  // ---- the stream, and the kill ----
  const ledger = new Ledger();
  const streamContext = {
    base: BASE,
    siteUrl: SITE_URL,
    ledger,
    random,
    tag,
    readerCookie,
    apiKey,
    webhookSecret,
  };
  const streams = runStreams(streamContext, plan);
  const victim = server!;
  const streamStarted = Date.now();
  await sleep(killAfterMs);
  // On a slow machine a kind may not have had an answer yet: the kill waits for one of each
  // (at most 15 s more), so that every kind is tested.
  const waitUntil = Date.now() + 15_000;
  while (!WRITE_KINDS.every((k) => ledger.of(k, 'acked').length > 0) && Date.now() < waitUntil) {
    await sleep(50);
  }
  ledger.markKilled();
  const killedAfterMs = Date.now() - streamStarted;
  signalGroup(victim, 'SIGKILL');
  await streams;
  while (groupAlive(victim.pid)) await sleep(20);

  // ---- restart on the same database ----
  const restartMs = await start('restart after SIGKILL');
  console.log(`[crash] restarted in ${restartMs} ms`);

  const figures = WRITE_KINDS.map((k) => {
    const n = (o: 'acked' | 'refused' | 'in-flight') => ledger.of(k, o).length;
    return `${k}: ${n('acked')} acknowledged, ${n('in-flight')} in flight, ${n('refused')} refused`;
  });
  console.log(`[crash] writes until the kill at ${killedAfterMs} ms:\n  ${figures.join('\n  ')}`);
  console.log(
    `[crash] ${ledger.pendingAtKill} requests were awaiting their answer at the kill (one per worker)`,
  );
  const refused = ledger.writes.filter((w) => w.outcome === 'refused');
  check(
    refused.length === 0,
    'no write refused before the kill',
    refused
      .slice(0, 3)
      .map((w) => `${w.kind} ${w.target}: ${w.status ?? ''} ${w.answer ?? ''}`)
      .join(' | '),
  );
  check(
    WRITE_KINDS.every((k) => ledger.of(k, 'acked').length > 0),
    'every kind of write was acknowledged at least once before the kill',
  );

  // ---- the site after the restart ----
  const retried = await retryCutSignUps(streamContext);
  console.log(`[crash] ${retried} sign-up(s) cut by the kill sent again by their readers`);
  const health = await fetch(`${BASE}/api/health`);
  check(
    health.status === 200,
    '/api/health answers 200 after the restart',
    `status ${health.status}`,
  );
  const editedIds = [...new Set(ledger.of('edit').map((w) => w.target.slice('posts:'.length)))];
  for (const id of editedIds.slice(0, 3)) {
    const api = (await (
      await fetch(`${BASE}/api/v1/posts/${id}?fields=title`, {
        headers: { 'x-microcms-api-key': apiKey },
      })
    ).json()) as { title?: string };
    const page = await fetch(`${BASE}/posts/${id}`);
    const html = await page.text();
    check(
      page.status === 200 && !!api.title && html.includes(api.title),
      `the edited post /posts/${id} is served with its stored title`,
      `status ${page.status}, "${api.title}"`,
    );
  }
  const bookmarkTargets = [...new Set(ledger.of('bookmark').map((w) => w.target))];
  const bookmarked = (await (
    await fetch(`${BASE}/api/bookmarks?items=${bookmarkTargets.join(',')}`, {
      headers: { cookie: readerCookie },
    })
  ).json()) as { bookmarked: string[]; signedIn: boolean };
  const wrongOnSite = bookmarkTargets.filter(
    (t) =>
      !allowedValues(
        ledger.writes.filter((w) => w.kind === 'bookmark' && w.target === t),
        'off',
      ).has(bookmarked.bookmarked.includes(t) ? 'on' : 'off'),
  );
  check(
    bookmarked.signedIn && wrongOnSite.length === 0,
    "the reader's session survives and the site shows the bookmarks as acknowledged",
    `signedIn ${bookmarked.signedIn}, ${bookmarked.bookmarked.length} bookmarked${wrongOnSite.length ? `, wrong: ${wrongOnSite.join(', ')}` : ''}`,
  );

  fs.writeFileSync(
    path.join(work, 'writes.json'),
    JSON.stringify(
      {
        seed,
        tag,
        killAfterMs,
        readerId,
        initialTitles: [...initialTitles],
        writes: ledger.writes,
      },
      null,
      1,
    ),
  );

  // ---- the database ----
  if (!DATABASE_URL) await stopServer(server!, 'SIGTERM');
  await withDatabase((db) => verifyDatabase({ db, ledger, tag, readerId, initialTitles, check }));
  if (DATABASE_URL) await stopServer(server!, 'SIGTERM');
  console.log(
    `[crash] ${kind}: kill at ${killedAfterMs} ms, ${ledger.pendingAtKill} in flight, restart ${restartMs} ms, ` +
      `${passed.length} checks passed, ${failures.length} failed`,
  );
}

try {
  await main();
} catch (error) {
  failures.push(String(error));
  console.error('[crash] 失敗しました / failed:', error);
}
console.log(
  failures.length === 0
    ? '[crash] すべての確認に合格 / all checks passed'
    : `[crash] ${failures.length} 件の確認に失敗 / ${failures.length} check(s) failed`,
);
process.exit(failures.length === 0 ? 0 : 1);
