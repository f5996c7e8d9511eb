/**
 * `npm run bench:sign-in-timing`: whether the time of an answer tells a registered address from
 * an unknown one (docs/decisions/020-sign-in-without-password.md: it must not). Against the
 * production build on a fresh embedded database, as a stranger would ask over HTTP: a sign-in
 * link asked for (BENCH_LINK_TRIES each, default 60) and a password sign-in with a wrong
 * password (BENCH_PASSWORD_TRIES each, default 40), registered and unknown addresses taken in
 * turn, each request from a client address of its own (TRUST_PROXY, so that no per-client
 * limit answers a 429 instead). Prints each side's median and p90 and the ratio of the medians.
 * Needs the build (`npm run build`); SITE_URL must be the build's.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, startServer } from './lib';

const LINK_TRIES = Number(process.env.BENCH_LINK_TRIES ?? 60);
const PASSWORD_TRIES = Number(process.env.BENCH_PASSWORD_TRIES ?? 40);
const SITE_URL = process.env.SITE_URL ?? 'http://localhost:3000';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-sign-in-'));
const env = { DATA_DIR: dataDir, SITE_URL, TRUST_PROXY: 'true', SIGN_IN_RATE_LIMIT_IP: '100000' };
const server = await startServer(env);
const base = `http://127.0.0.1:${server.port}`;

// Registered readers, made through the running server (the CLI reaches it over its socket).
const registered = Array.from({ length: 4 }, (_, i) => `timing-${i}@example.jp`);
for (const email of registered) {
  const made = spawnSync(
    process.execPath,
    [
      '--conditions=react-server',
      path.join(root, 'scripts/launch.mjs'),
      'admin',
      'create-user',
      '--email',
      email,
      '--password',
      'kumo-no-ue-no-sora-42',
    ],
    { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`create-user failed: ${made.stderr}`);
}
const unknown = registered.map((_, i) => `nobody-${i}@example.jp`);

let client = 0;
/** One form post from a new client address; answers its time in ms and its status. */
async function post(pathname: string, form: Record<string, string>) {
  client += 1;
  const started = performance.now();
  const res = await fetch(`${base}${pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(SITE_URL).origin,
      'x-forwarded-for': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`,
    },
    body: new URLSearchParams(form),
  });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/** Registered and unknown in turn (so load on the machine falls on both alike). */
async function compare(
  name: string,
  tries: number,
  ask: (email: string) => Promise<{ ms: number; status: number }>,
) {
  const times = { registered: [] as number[], unknown: [] as number[] };
  const statuses = { registered: new Set<number>(), unknown: new Set<number>() };
  // Two of each first, unmeasured: the first requests of a route compile and warm it.
  for (let i = 0; i < 2; i++) {
    await ask(registered[i % registered.length]!);
    await ask(unknown[i % unknown.length]!);
  }
  for (let i = 0; i < tries; i++) {
    for (const side of i % 2
      ? (['unknown', 'registered'] as const)
      : (['registered', 'unknown'] as const)) {
      const list = side === 'registered' ? registered : unknown;
      const answer = await ask(list[i % list.length]!);
      times[side].push(answer.ms);
      statuses[side].add(answer.status);
    }
  }
  const median = {
    registered: quantile(times.registered, 0.5),
    unknown: quantile(times.unknown, 0.5),
  };
  console.log(
    `${name} (${tries} each): registered median ${median.registered.toFixed(1)} ms, p90 ${quantile(times.registered, 0.9).toFixed(1)} ms, ` +
      `status ${[...statuses.registered].join('/')}; unknown median ${median.unknown.toFixed(1)} ms, p90 ${quantile(times.unknown, 0.9).toFixed(1)} ms, ` +
      `status ${[...statuses.unknown].join('/')}; ratio of medians ${(median.registered / median.unknown).toFixed(2)}`,
  );
}

try {
  await compare('sign-in link asked for', LINK_TRIES, (email) =>
    post('/api/account/sign-in-link', { email }),
  );
  await compare('password sign-in, wrong password', PASSWORD_TRIES, (email) =>
    post('/api/account/sign-in', { email, password: 'not-the-password-at-all' }),
  );
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
