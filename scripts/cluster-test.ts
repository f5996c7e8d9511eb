/**
 * `npm run test:cluster`: two production instances of the site on one PostgreSQL server behind
 * nginx (Debian's), all on loopback, started and stopped here. It shows what running several
 * instances depends on:
 *   1. a session made on one instance works on the other;
 *   2. a publish on one is seen on the other within a second (API answers and cached pages),
 *      and a page that did not show it stays cached;
 *   3. the same webhook delivered to both at once is applied once;
 *   4. one instance killed (SIGKILL) under load through nginx fails no request but those in
 *      flight at the kill.
 * Run through scripts/with-postgres.sh (package.json), which provides DATABASE_URL. Needs the
 * production build (made here when missing or stale, before any instance starts) and nginx
 * (`apt-get install nginx-light`). Exits non-zero when a check fails.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from './lib/free-port';
import S3rver from 's3rver';
import { settingsOnBuiltSiteUrl, runNextBuild, staleBuildReason } from './lib/build-freshness';

const root = path.resolve(import.meta.dirname, '..');
const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) {
  console.error('DATABASE_URL is not set: run `npm run test:cluster` (scripts/with-postgres.sh).');
  process.exit(2);
}
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => fs.existsSync(file));
if (!NGINX) {
  console.error('nginx was not found: apt-get install -y nginx-light');
  process.exit(2);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-cluster-'));
const children: ChildProcess[] = [];
const failures: string[] = [];

function check(ok: boolean, what: string, detail = ''): void {
  console.log(`${ok ? '✓' : '✗'} ${what}${detail ? ` (${detail})` : ''}`);
  if (!ok) failures.push(what);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

// ---- setup ---------------------------------------------------------------------------------

// The build's own SITE_URL, so that no instance decides to rebuild what the other serves.
const settings = settingsOnBuiltSiteUrl(root);
const reason = staleBuildReason(root, settings);
if (reason) {
  console.log(`[cluster] building first (${reason}) …`);
  if ((await runNextBuild(root, settings)) !== 0) process.exit(1);
}
const SITE_URL = settings.SITE_URL;

const [portA, portB, portLb] = await Promise.all([freePort(), freePort(), freePort()]);
const A = `http://127.0.0.1:${portA}`;
const B = `http://127.0.0.1:${portB}`;
const LB = `http://127.0.0.1:${portLb}`;

// Object storage: an S3-compatible server on loopback (s3rver).
const S3_BUCKET = 'axis-cluster-media';
const s3 = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: path.join(work, 's3'),
  vhostBuckets: false,
  configureBuckets: [{ name: S3_BUCKET }],
});
const s3Port = (await s3.run()).port;

// Both instances share the database, the object storage and the secret; each has its own
// data directory (temporary files).
const sharedEnv: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL,
  S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
  S3_BUCKET,
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  SITE_URL,
  APP_SECRET: randomBytes(32).toString('hex'),
  TRUST_PROXY: 'true',
  BILLING_SANDBOX: 'true',
  OPERATOR_NAME: '株式会社クラスタ試験',
  OPERATOR_REPRESENTATIVE: '試験 太郎',
  OPERATOR_EMAIL: 'cluster@example.jp',
  OPERATOR_DISCLOSE_ON_REQUEST: 'true',
  NEXT_TELEMETRY_DISABLED: '1',
};

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, {
    cwd: root,
    env: { ...sharedEnv, DATA_DIR: path.join(work, 'cli') },
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout.trim();
}
const admin = (...args: string[]) => run('npm', ['run', '-s', 'admin', '--', ...args]).split('\n');

function startInstance(name: string, port: number): ChildProcess {
  const log = fs.openSync(path.join(work, `${name}.log`), 'w');
  const child = spawn(
    process.execPath,
    ['--conditions=react-server', 'scripts/launch.mjs', 'start'],
    {
      cwd: root,
      env: { ...sharedEnv, PORT: String(port), DATA_DIR: path.join(work, name) },
      stdio: ['ignore', log, log],
      detached: true, // its own process group: killed whole, the launcher included
    },
  );
  children.push(child);
  return child;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  }
}

function startNginx(): ChildProcess {
  const dir = path.join(work, 'nginx');
  fs.mkdirSync(dir);
  const root_ = process.getuid?.() === 0 ? 'user root;' : '';
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${root_}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 2048; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream site {
    server 127.0.0.1:${portA} max_fails=1 fail_timeout=10s;
    server 127.0.0.1:${portB} max_fails=1 fail_timeout=10s;
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${portLb};
    client_max_body_size 600m;
    location / {
      proxy_pass http://site;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # One proxy: the app takes the last X-Forwarded-For entry (TRUST_PROXY=true).
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Request-Id $request_id;
      # A request the dead instance never answered is tried on the other (idempotent ones only).
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 2;
      proxy_connect_timeout 2s;
    }
  }
}
`,
  );
  const child = spawn(
    NGINX!,
    [
      '-p',
      dir,
      '-c',
      path.join(dir, 'nginx.conf'),
      '-e',
      path.join(dir, 'error.log'),
      '-g',
      'daemon off;',
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], detached: true },
  );
  children.push(child);
  return child;
}

function cleanup(): void {
  for (const child of children) killGroup(child, 'SIGKILL');
  if (failures.length === 0) fs.rmSync(work, { recursive: true, force: true });
  else console.log(`[cluster] logs kept in ${work}`);
}
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

// ---- checks --------------------------------------------------------------------------------

/** The cookies a response sets, as a Cookie header. */
function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0])
    .join('; ');
}

async function sessionsAreShared(): Promise<void> {
  const email = `cluster-${Date.now()}@example.jp`;
  const password = 'Kumo-Sora-Cluster-2026!';
  admin('create-user', '--email', email, '--password', password, '--name', 'クラスタ読者');
  const signIn = await fetch(`${A}/api/account/sign-in`, {
    method: 'POST',
    headers: { origin: SITE_URL, accept: 'application/json' },
    body: new URLSearchParams({ email, password }),
  });
  const cookie = cookiesOf(signIn);
  check(signIn.ok && cookie.length > 0, 'sign-in on instance A', `status ${signIn.status}`);
  const onB = await fetch(`${B}/account/edit`, { headers: { cookie }, redirect: 'manual' });
  const html = await onB.text();
  check(
    onB.status === 200 && html.includes(email),
    "A's session is signed in on instance B",
    `status ${onB.status}`,
  );
  const anonymous = await fetch(`${B}/account/edit`, { redirect: 'manual' });
  check(
    anonymous.status >= 300 && anonymous.status < 400,
    'B without the cookie sends to sign-in',
    `status ${anonymous.status}`,
  );
}

/** Polls until `seen()` is true; the milliseconds it took, or null past the limit. */
async function within(limitMs: number, seen: () => Promise<boolean>): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if (await seen()) return Math.round(performance.now() - started);
    await sleep(20);
  }
  return null;
}

async function publishIsSeenEverywhere(): Promise<void> {
  const key = admin('create-api-key', '--name', 'cluster-test', '--permissions', 'GET,PATCH').at(
    -1,
  )!;
  const headers = { 'x-microcms-api-key': key };
  const list = (await (await fetch(`${A}/api/v1/posts?limit=1&fields=id`, { headers })).json()) as {
    contents: { id: string }[];
  };
  const id = list.contents[0]?.id;
  if (!id) throw new Error('no published post to edit');
  const apiOnB = () =>
    fetch(`${B}/api/v1/posts/${id}?fields=title`, { headers }).then(
      (r) => r.json() as Promise<{ title: string }>,
    );
  const pageOnB = () => fetch(`${B}/posts/${id}`).then((r) => r.text());
  const aboutOnB = () => fetch(`${B}/about`);
  // B has them in its caches now (30 s for API answers, 60 s for pages).
  await apiOnB();
  await pageOnB();
  await pageOnB();
  await (await aboutOnB()).text();

  const title = `クラスタで公開 ${Date.now()}`;
  const patched = await fetch(`${A}/api/v1/posts/${id}`, {
    method: 'PATCH',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  check(patched.ok, 'an edit published on instance A', `status ${patched.status}`);
  const api = await within(1000, async () => (await apiOnB()).title === title);
  check(api !== null, "B's content API answers the new title within a second", `${api} ms`);
  const page = await within(1000, async () => (await pageOnB()).includes(title));
  check(
    page !== null,
    "B's cached page shows the new title within a second",
    `${page} ms after the API`,
  );
  // A page that never showed the post keeps its cached copy
  // (docs/decisions/044-purge-what-a-change-showed.md).
  const about = await aboutOnB();
  await about.text();
  check(
    about.headers.get('x-page-cache') === 'hit',
    "B's cached page that did not show the post stays cached",
    `x-page-cache ${about.headers.get('x-page-cache')}`,
  );
}

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function mediaIsShared(): Promise<void> {
  const key = admin('create-api-key', '--name', 'cluster-media', '--permissions', 'POST').at(-1)!;
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'dot.png');
  const uploaded = await fetch(`${A}/api/media`, {
    method: 'POST',
    headers: { 'x-microcms-api-key': key },
    body: form,
  });
  const { url } = (await uploaded.json()) as { url?: string };
  check(
    uploaded.status === 201 && !!url,
    'an image uploaded on instance A',
    `status ${uploaded.status}`,
  );
  const onB = await fetch(new URL(new URL(url ?? '/', SITE_URL).pathname, B));
  const bytes = Buffer.from(await onB.arrayBuffer());
  check(
    onB.ok && bytes.equals(PNG),
    'instance B serves it from the object storage',
    `status ${onB.status}`,
  );
}

/** A Stripe-Signature header, as Stripe signs: HMAC-SHA256 of `t.body`. */
function stripeSignature(body: string, secret: string): string {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

async function webhookAppliedOnce(): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const { rows } = await client.query<{ value: string }>(
    "SELECT value FROM billing_sandbox_settings WHERE name = 'app_webhook_secret'",
  );
  await client.end();
  const secret = rows[0]?.value;
  if (!secret) throw new Error('the sandbox webhook secret is not set up');
  let once = 0;
  const rounds = 20;
  for (let round = 0; round < rounds; round++) {
    const body = JSON.stringify({
      id: `evt_cluster_${Date.now()}_${round}`,
      object: 'event',
      type: 'product.updated',
      api_version: '2025-01-27.acacia',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'prod_cluster', object: 'product' } },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    const deliver = (base: string) =>
      fetch(`${base}/api/webhooks/billing`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': stripeSignature(body, secret),
        },
        body,
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as Record<string, unknown>,
      }));
    const answers = await Promise.all([deliver(A), deliver(B)]);
    const applied = answers.filter((a) => a.status === 200 && !a.body.duplicate).length;
    const others = answers.filter((a) => a.status === 409 || a.body.duplicate === true).length;
    if (applied === 1 && others === 1) once++;
  }
  check(
    once === rounds,
    'the same webhook sent to both instances at once is applied once',
    `${once}/${rounds} rounds`,
  );
}

async function survivesAKill(instanceB: ChildProcess, postPath: string): Promise<void> {
  const connections = 50;
  // Not /search: it is limited per client address, and every request here comes from one.
  const paths = ['/', '/posts', postPath, '/posts?page=2', '/jobs', '/api/health'];
  const answers = await Promise.all(
    paths.map(
      async (p) => `${p} ${(await fetch(LB + encodeURI(p), { redirect: 'manual' })).status}`,
    ),
  );
  check(
    answers.every((a) => a.endsWith(' 200')),
    'every path of the load answers 200',
    answers.join(', '),
  );
  let killedAt = 0;
  const statuses: Record<string, number> = {};
  const tallied = (key: string) => (statuses[key] = (statuses[key] ?? 0) + 1);
  const timer = setTimeout(() => {
    killedAt = Date.now();
    killGroup(instanceB, 'SIGKILL');
  }, 5000);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: LB,
        connections,
        duration: 15,
        requests: paths.map((p) => ({ method: 'GET', path: encodeURI(p) })),
      },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on('response', (_client, status) =>
      tallied(`${killedAt ? 'after' : 'before'}:${status}`),
    );
    instance.on('reqError', () => tallied('error'));
  });
  clearTimeout(timer);
  const failed = result.errors + result.timeouts + result.non2xx;
  const tally = Object.entries(statuses)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
  check(killedAt > 0, 'instance B killed (SIGKILL) 5 s into the load');
  check(
    failed <= connections,
    'no failed request but those in flight at the kill',
    `${result.requests.total} requests, ${failed} failed (at most ${connections} were in flight; ${tally}), ` +
      `${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`,
  );
  const after = await fetch(`${LB}/`);
  check(after.ok, 'the site still answers through nginx after the kill', `status ${after.status}`);
}

try {
  console.log(
    `[cluster] PostgreSQL ${DATABASE_URL.replace(/:[^:@/]*@/, ':***@')}, site ${SITE_URL}`,
  );
  run(process.execPath, ['--conditions=react-server', 'scripts/launch.mjs', 'seed']);
  const instanceA = startInstance('a', portA);
  const instanceB = startInstance('b', portB);
  startNginx();
  await Promise.all([waitFor(`${A}/api/health`, 120_000), waitFor(`${B}/api/health`, 120_000)]);
  await waitFor(`${LB}/api/health`, 10_000);
  console.log(`[cluster] instances on :${portA} and :${portB}, nginx on :${portLb}`);

  await sessionsAreShared();
  await publishIsSeenEverywhere();
  await mediaIsShared();
  await webhookAppliedOnce();
  const post = (await (await fetch(`${A}/posts`)).text()).match(
    /href="(\/posts\/[a-z0-9_-]+)"/,
  )?.[1];
  await survivesAKill(instanceB, post ?? '/posts');
  killGroup(instanceA, 'SIGTERM');
} catch (error) {
  failures.push(String(error));
  console.error('[cluster] failed:', error);
}
console.log(
  failures.length === 0
    ? '[cluster] all checks passed'
    : `[cluster] ${failures.length} check(s) failed`,
);
process.exit(failures.length === 0 ? 0 : 1);
