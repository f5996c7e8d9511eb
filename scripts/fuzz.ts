/**
 * `npm run test:fuzz`: an HTTP fuzz run against the production build. It starts the site on a
 * temporary embedded database (demo content), signs in a member, an editor and an admin, makes
 * a content API key with every permission, then sends 2,000 malformed requests (CI's share;
 * `--full` sends the whole 10,000) from a seeded PRNG to every page, route handler, form and content API endpoint (wrong methods and
 * types, huge and deep bodies, broken JSON and percent-encoding, odd Unicode, injection
 * strings, framework headers, junk cookies, broken request lines). It fails on any 5xx,
 * unanswered or dropped request, on a server that no longer answers /api/health, on memory
 * that grows past its bound (1.5 GB, or far above where it started), and on a guarded table
 * that changed without an accepted write (scripts/lib/fuzz/tables.ts). Needs the production
 * build (`npm run build`); it does not build. `--seed N` replays a run, `--only I` sends only
 * request I of it, `--full` or `--requests N` sizes it, `--concurrency N` (default 8); FUZZ_VERBOSE=1
 * prints every request with its answer.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '@/server/platform/db/client';
import { contentEndpoints, discoverForms, discoverRoutes } from './lib/fuzz/routes';
import {
  type FuzzContext,
  type FuzzRequest,
  type Identity,
  KINDS,
  generateRequest,
} from './lib/fuzz/generate';
import { groupRss } from './lib/fuzz/memory';
import { createRng } from './lib/fuzz/prng';
import { type Outcome, sendHttp, sendRaw, toRaw } from './lib/fuzz/send';
import { type AcceptedWrite, type Counts, countRows, unexplainedChanges } from './lib/fuzz/tables';

const { values: args } = parseArgs({
  options: {
    seed: { type: 'string' },
    requests: { type: 'string' },
    full: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '8' },
    only: { type: 'string' },
  },
});
const SEED = args.seed ? Number(args.seed) : randomBytes(4).readUInt32BE();
// 2,000 requests reach every request kind many times over in about a minute; the full run
// (10,000) is for a change to the front server, the content API or the forms.
const REQUESTS = Number(args.requests ?? (args.full ? 10_000 : 2_000));
if (!Number.isSafeInteger(REQUESTS) || REQUESTS < 1) {
  console.error(
    '--requests は 1 以上の整数で指定してください (--requests must be a whole number ≥ 1).',
  );
  process.exit(2);
}
const CONCURRENCY = Number(args.concurrency);
const ONLY = args.only === undefined ? undefined : Number(args.only);
const TIMEOUT_MS = 30_000;
const MEMORY_LIMIT = 1.5 * 1024 ** 3;
const MB = 1024 * 1024;

const root = path.resolve(import.meta.dirname, '..');
const buildSettings = path.join(root, '.next/build-settings.json');
if (!fs.existsSync(buildSettings)) {
  console.error(
    '本番ビルドがありません (no production build): npm run build を先に実行してください。',
  );
  process.exit(2);
}
// The build's own SITE_URL, so that the server does not decide to rebuild.
const SITE_URL = (JSON.parse(fs.readFileSync(buildSettings, 'utf8')) as { SITE_URL: string })
  .SITE_URL;
console.log(
  `[fuzz] seed ${SEED} (replay: npm run test:fuzz -- --seed ${SEED} --requests ${REQUESTS}), ${REQUESTS} requests`,
);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-fuzz-'));
const DATA_DIR = path.join(work, 'data');
const failures: string[] = [];
let server: ChildProcess | undefined;

const port = await new Promise<number>((resolve, reject) => {
  const probe = net.createServer();
  probe.once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const { port: p } = probe.address() as net.AddressInfo;
    probe.close(() => resolve(p));
  });
});
const BASE = `http://127.0.0.1:${port}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: '',
  DATA_DIR,
  PORT: String(port),
  SITE_URL,
  APP_SECRET: randomBytes(32).toString('hex'),
  BILLING_SANDBOX: 'true',
  OPERATOR_NAME: '株式会社ファズ試験',
  OPERATOR_REPRESENTATIVE: '試験 太郎',
  OPERATOR_EMAIL: 'fuzz@example.jp',
  OPERATOR_DISCLOSE_ON_REQUEST: 'true',
  NEXT_TELEMETRY_DISABLED: '1',
};
delete env.DATABASE_URL;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startServer(): ChildProcess {
  const log = fs.openSync(path.join(work, 'server.log'), 'a');
  const child = spawn(
    process.execPath,
    ['--conditions=react-server', 'scripts/launch.mjs', 'start'],
    {
      cwd: root,
      env,
      stdio: ['ignore', log, log],
      detached: true, // its own process group: stopped whole, the launcher included
    },
  );
  server = child;
  return child;
}

async function healthy(): Promise<boolean> {
  return fetch(`${BASE}/api/health`, { signal: AbortSignal.timeout(5000) }).then(
    (r) => r.ok,
    () => false,
  );
}

async function waitHealthy(timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await healthy()) return;
    if (server?.exitCode !== null) throw new Error(`the server exited; see ${work}/server.log`);
    await sleep(300);
  }
  throw new Error(`/api/health did not answer within ${timeoutMs / 1000} s`);
}

/** SIGTERM to the group, then the wait for the server to let go of the data directory. */
async function stopServer(): Promise<void> {
  const child = server;
  if (!child?.pid || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }, 30_000);
  await exited;
  clearTimeout(timer);
  // npx may exit before its node child: wait for the whole group.
  while (groupRss(child.pid) > 0) await sleep(100);
}

process.on('exit', () => {
  if (server?.pid && server.exitCode === null) {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  if (failures.length === 0) fs.rmSync(work, { recursive: true, force: true });
  else console.log(`[fuzz] server log and data kept in ${work}`);
});
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

function admin(...cliArgs: string[]): string[] {
  const result = spawnSync('npm', ['run', '-s', 'admin', '--', ...cliArgs], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`admin ${cliArgs[0]} failed:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout.trim().split('\n');
}

async function countGuardedRows(): Promise<Counts> {
  const database = await openDatabase({ dataDir: DATA_DIR, migrate: false });
  try {
    return await countRows(database.db);
  } finally {
    await database.close();
  }
}

// ---- setup: users, a key, real ids ---------------------------------------------------------

startServer();
await waitHealthy(240_000);

const password = 'Fuzz-Kumo-Sora-2026!';
const users: Record<'member' | 'editor' | 'admin' | 'target', string> = {
  member: 'fuzz-member@example.jp',
  editor: 'fuzz-editor@example.jp',
  admin: 'fuzz-admin@example.jp',
  target: 'fuzz-target@example.jp',
};
for (const [role, email] of Object.entries(users)) {
  const asRole = role === 'target' ? 'member' : role;
  admin(
    'create-user',
    '--email',
    email,
    '--password',
    password,
    '--name',
    `ファズ ${role}`,
    '--role',
    asRole,
  );
}
const apiKey = admin(
  'create-api-key',
  '--name',
  'fuzz',
  '--permissions',
  'GET,drafts,POST,PUT,PATCH,DELETE',
).at(-1)!;

async function signIn(email: string): Promise<string> {
  const response = await fetch(`${BASE}/api/account/sign-in`, {
    method: 'POST',
    headers: { origin: SITE_URL, accept: 'application/json' },
    body: new URLSearchParams({ email, password }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0])
    .join('; ');
  if (!response.ok || !cookie) throw new Error(`sign-in as ${email}: status ${response.status}`);
  return cookie;
}

async function me(cookie: string): Promise<{ role: string | null; text: string }> {
  const response = await fetch(`${BASE}/api/me`, { headers: { cookie } });
  const text = await response.text();
  return { role: (JSON.parse(text) as { role: string | null }).role, text };
}

const cookies = {
  member: await signIn(users.member),
  editor: await signIn(users.editor),
  admin: await signIn(users.admin),
};
const targetMe = (await me(await signIn(users.target))).text;
const targetUserId = /"(?:uid|id)":"([^"]+)"/.exec(targetMe)?.[1];
if (!targetUserId) throw new Error(`no user id in /api/me: ${targetMe.slice(0, 200)}`);

const endpoints = contentEndpoints();
const ids: Record<string, string[]> = {};
for (const def of endpoints.filter((d) => d.list)) {
  const response = await fetch(`${BASE}/api/v1/${def.endpoint}?limit=20&fields=id`, {
    headers: { 'x-microcms-api-key': apiKey },
  });
  const body = (await response.json()) as { contents?: { id: string }[] };
  ids[def.endpoint] = (body.contents ?? []).map((c) => c.id);
}

const routes = discoverRoutes(root);
const forms = discoverForms(root);
console.log(
  `[fuzz] ${routes.length} routes, ${forms.length} forms, ${endpoints.length} content endpoints, ` +
    `${Object.values(ids).flat().length} content ids`,
);

// The counts before: read with the server stopped (the embedded database has one owner).
await stopServer();
const before = await countGuardedRows();
startServer();
await waitHealthy(120_000);
for (const role of ['member', 'editor', 'admin'] as const) {
  const { role: seen } = await me(cookies[role]);
  if (seen !== role) throw new Error(`the ${role} session did not survive the restart (${seen})`);
}

// ---- the run -------------------------------------------------------------------------------

const ctx: FuzzContext = {
  routes,
  forms,
  endpoints,
  ids,
  targetUserId,
  origin: new URL(SITE_URL).origin,
  host: `127.0.0.1:${port}`,
  hugeBytes: 3 * MB,
  jsonDepth: 10_000,
};
const credentials = (identity: Identity): [string, string][] =>
  identity === 'anonymous'
    ? []
    : identity === 'apiKey'
      ? [['x-microcms-api-key', apiKey]]
      : [['cookie', cookies[identity]]];

const rng = createRng(SEED);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const byKind = new Map<string, Map<string, number>>();
const byClass = new Map<string, number>();
const fourxx = new Map<number, number>();
const accepted: AcceptedWrite[] = [];
const pgid = server!.pid!;
const rssStart = groupRss(pgid);
let rssPeak = rssStart;
const sampler = setInterval(() => {
  rssPeak = Math.max(rssPeak, groupRss(pgid));
}, 250);

function send(request: FuzzRequest): Promise<Outcome> {
  if (request.raw) return sendRaw(port, request.raw, TIMEOUT_MS);
  const headers = [...request.headers];
  if (!headers.some(([name]) => name === 'cookie')) headers.push(...credentials(request.identity));
  if (request.viaSocket) return sendRaw(port, toRaw(request, headers, ctx.host), TIMEOUT_MS);
  return sendHttp(agent, port, request, headers, TIMEOUT_MS);
}

/** The slowest requests of the run, for its summary: a slow run says what kept it. */
const slowest: { ms: number; line: string }[] = [];
function noteSlow(index: number, request: FuzzRequest, outcome: Outcome, ms: number): void {
  if (slowest.length === 5 && ms <= slowest[4]!.ms) return;
  const path = request.path.length > 80 ? `${request.path.slice(0, 80)}…` : request.path;
  const line = `#${index} ${request.kind} ${request.method.slice(0, 20)} ${JSON.stringify(path)} as ${request.identity} → ${outcome.status}`;
  slowest.push({ ms, line });
  slowest.sort((a, b) => b.ms - a.ms).splice(5);
}

function record(index: number, request: FuzzRequest, outcome: Outcome): void {
  const { status } = outcome;
  if (process.env.FUZZ_VERBOSE) {
    const shown = JSON.stringify(request.path.slice(0, 100));
    console.log(
      `#${index} ${request.kind} ${request.method.slice(0, 20)} ${shown} as ${request.identity} → ${status} ${JSON.stringify(outcome.excerpt.slice(0, 100))}`,
    );
  }
  const statusClass = typeof status === 'number' ? `${Math.floor(status / 100)}xx` : status;
  byClass.set(statusClass, (byClass.get(statusClass) ?? 0) + 1);
  const kind = byKind.get(request.kind) ?? new Map<string, number>();
  kind.set(statusClass, (kind.get(statusClass) ?? 0) + 1);
  byKind.set(request.kind, kind);
  if (typeof status === 'number' && status >= 400 && status < 500) {
    fourxx.set(status, (fourxx.get(status) ?? 0) + 1);
  }
  const method = request.method.toUpperCase();
  if (typeof status === 'number' && status < 400 && method !== 'GET' && method !== 'HEAD') {
    accepted.push({ method: request.method, path: request.path, status });
  }
  // A connection dropped without an answer fails too, but for bytes that are not HTTP at all.
  const dropped = status === 'closed' && request.kind !== 'raw-request';
  if (status === 'timeout' || dropped || (typeof status === 'number' && status >= 500)) {
    const shown = request.path.length > 160 ? `${request.path.slice(0, 160)}…` : request.path;
    failures.push(
      `#${index} ${request.kind} ${status} ${JSON.stringify(request.method.slice(0, 40))} ${JSON.stringify(shown)} ` +
        `as ${request.identity}: ${JSON.stringify(outcome.excerpt.slice(0, 200))} ` +
        `(replay: --seed ${SEED} --only ${index})`,
    );
  }
}

const started = performance.now();
let nextIndex = 0;
let sent = 0;
async function worker(): Promise<void> {
  while (nextIndex < REQUESTS) {
    const index = nextIndex++;
    // Every request is drawn in order, so a seed gives the same run whatever the concurrency.
    const request = generateRequest(rng, ctx, rng.pick(KINDS));
    if (ONLY !== undefined && index !== ONLY) continue;
    const sentAt = performance.now();
    const outcome = await send(request);
    noteSlow(index, request, outcome, performance.now() - sentAt);
    record(index, request, outcome);
    sent++;
    if (sent % 1000 === 0) {
      const rate = Math.round(sent / ((performance.now() - started) / 1000));
      console.log(`[fuzz] ${sent} sent (${rate} req/s), RSS ${Math.round(groupRss(pgid) / MB)} MB`);
    }
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
const seconds = (performance.now() - started) / 1000;
agent.destroy();

// ---- after: alive, memory, rows ------------------------------------------------------------

await sleep(5000); // a pause for the collector
clearInterval(sampler);
const rssEnd = groupRss(pgid);
rssPeak = Math.max(rssPeak, rssEnd);
const alive = await healthy();
// Not a failure: says whether the signed-in part of the run kept its sessions to the end.
const stillSignedIn = await Promise.all(
  (['member', 'editor', 'admin'] as const).map(
    async (role) => (await me(cookies[role])).role === role,
  ),
);
if (!alive) failures.push('the server no longer answers /api/health');
if (rssPeak > MEMORY_LIMIT) failures.push(`memory peaked at ${Math.round(rssPeak / MB)} MB`);
if (rssEnd > Math.max(2 * rssStart, rssStart + 400 * MB)) {
  failures.push(
    `memory stayed at ${Math.round(rssEnd / MB)} MB (started at ${Math.round(rssStart / MB)} MB)`,
  );
}
await stopServer();
const after = await countGuardedRows();
for (const change of unexplainedChanges(before, after, accepted)) {
  failures.push(
    `partial write: ${change.table} ${change.before} → ${change.after} rows, no accepted write explains it`,
  );
}

// ---- summary -------------------------------------------------------------------------------

const line = (entries: Iterable<[string | number, number]>) =>
  [...entries]
    .sort(([a], [b]) => String(a).localeCompare(String(b)))
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
console.log(`\n[fuzz] 結果 (summary), seed ${SEED}`);
console.log(`  requests: ${sent} in ${seconds.toFixed(1)} s (${Math.round(sent / seconds)} req/s)`);
console.log(
  `  slowest: ${slowest.map((s) => `${Math.round(s.ms)} ms ${s.line}`).join('\n           ')}`,
);
console.log(`  by status class: ${line(byClass)}`);
console.log(`  4xx: ${line(fourxx)}`);
console.log('  by kind:');
for (const [kind, classes] of [...byKind].sort()) console.log(`    ${kind}: ${line(classes)}`);
console.log(
  `  server RSS: start ${Math.round(rssStart / MB)} MB, peak ${Math.round(rssPeak / MB)} MB, ` +
    `end ${Math.round(rssEnd / MB)} MB (limit ${MEMORY_LIMIT / MB} MB)`,
);
console.log(`  /api/health at the end: ${alive ? 'ok' : 'NO ANSWER'}`);
console.log(
  `  sessions still signed in at the end: member ${stillSignedIn[0]}, editor ${stillSignedIn[1]}, admin ${stillSignedIn[2]}`,
);
const changed = Object.keys(before).filter((t) => before[t] !== after[t]);
console.log(
  `  accepted writes: ${accepted.length}; guarded tables changed: ` +
    (changed.length ? changed.map((t) => `${t} ${before[t]}→${after[t]}`).join(', ') : 'none'),
);
for (const write of accepted.slice(0, 20)) {
  console.log(`    ${write.status} ${write.method} ${write.path.slice(0, 120)}`);
}
if (failures.length) {
  console.log(`\n✗ ${failures.length} 件の失敗 (failures):`);
  for (const failure of failures.slice(0, 50)) console.log(`  ${failure}`);
  process.exit(1);
}
console.log(
  '\n✓ 5xx なし・部分書き込みなし・メモリは上限内 (no 5xx, no partial write, memory bounded)',
);
