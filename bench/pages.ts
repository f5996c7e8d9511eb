/**
 * `npm run bench:pages`: the reading pages on a production build with the demo corpus plus
 * 10,000 generated posts (BENCH_POSTS to change), embedded PGlite:
 * - a members' `/posts/{id}` with autocannon (10 connections, 10 s) against a plain Node http
 *   server sending the anonymous page's HTML bytes, in the same run: as an anonymous visitor, a
 *   free member and a paid member (each with its session and audience cookies, as a browser
 *   sends them), and the client-side navigation to it (the RSC request the router sends) as
 *   anonymous and paid; req/s, the ratio to the plain server (targets: anonymous ≥ 0.5, the
 *   rest ≥ 0.25), p50 and p99, the server's peak memory;
 * - Lighthouse (its standard mobile preset, median of 3, bench/lighthouse.ts) on `/`, a post, a
 *   movie page and `/service-plans` beside the bare App Router page measured in the same rounds
 *   (targets: performance within 5 points and LCP within 1 s of the bare page's; accessibility,
 *   best practices and SEO 100), with LCP, FCP, CLS and TBT;
 * - first-load JavaScript per route: every script the page's HTML loads, gzip-compressed, beside
 *   the framework's floor (bench/bare-app) and the site's own share above it (target: a post
 *   page ≤ 130 KB, below the floor of Next.js 16.4; see docs/benchmarks.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '@/server/platform/db/client';
import { runAdminCommand } from '@/server/features/admin/commands';
import { copyDemoMedia, seedDemoContent } from '@/server/features/seed/seed';
import { loadBuildSettings, runNextBuild, staleBuildReason } from '../scripts/lib/build-freshness';
import { seedCorpus } from './cms-corpus';
import { firstLoadJsBytes, frameworkFloorBytes, startBareApp } from './first-load-js';
import { lighthouseRounds, lighthouseTable } from './lighthouse';
import { load, peakRssMiB, plainServer, root, startServer } from './lib';

const POSTS = Number(process.env.BENCH_POSTS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

const settings = loadBuildSettings();
if (staleBuildReason(root, settings) && (await runNextBuild(root, settings)) !== 0) process.exit(1);

console.log(`demo corpus + ${POSTS} posts on embedded PGlite`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-pages-'));
{
  const database = await openDatabase({ dataDir });
  await copyDemoMedia(path.join(dataDir, 'uploads'));
  await seedDemoContent(database.db);
  await database.close();
}
await seedCorpus(POSTS, undefined, dataDir);
// A free and a paid reader, made as staff make them.
const PASSWORD = 'bench-kumo-no-ue-77';
{
  const database = await openDatabase({ dataDir });
  const ctx = { database, actor: 'cli:bench' };
  for (const email of ['free@bench.example', 'paid@bench.example'])
    await runAdminCommand(ctx, 'create-user', { email, password: PASSWORD });
  await runAdminCommand(ctx, 'grant-plan', { email: 'paid@bench.example', plan: 'monthly' });
  await database.close();
}

const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' });
const base = `http://127.0.0.1:${server.port}`;
const postPath = `/posts/post-${String(Math.floor(POSTS / 2)).padStart(6, '0')}`;
const moviePath = '/movies/movie-001';

// Throughput: the framework (through the front server's page cache) against the ceiling.
const html = Buffer.from(await (await fetch(base + postPath)).arrayBuffer());
const plain = await plainServer(html, 'text/html; charset=utf-8');
const ceiling = await load(`http://127.0.0.1:${plain.port}/`, SECONDS);
plain.close();

/** A reader's session cookie, signed in as the sign-in form does. */
async function sessionOf(email: string): Promise<string> {
  const response = await fetch(`${base}/api/account/sign-in`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      origin: 'http://localhost:3000',
    },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const cookie = response.headers.getSetCookie().map((c) => c.split(';')[0]);
  if (!response.ok || cookie.length === 0) throw new Error(`sign-in failed for ${email}`);
  return cookie.join('; ');
}
/** The cookies a browser holds a minute at most: the session and its fresh audience cookie. */
async function browserCookies(session: string): Promise<string> {
  const response = await fetch(base + postPath, { headers: { cookie: session } });
  await response.arrayBuffer();
  const audience = response.headers.getSetCookie().map((c) => c.split(';')[0]);
  return [session, ...audience].join('; ');
}
/** The router's request for a client-side navigation to the post (its `_rsc` as it computes it). */
async function navigation(
  cookie: string,
): Promise<{ url: string; headers: Record<string, string> }> {
  const headers = {
    cookie,
    rsc: '1',
    'next-router-state-tree': encodeURIComponent(
      JSON.stringify(['', { children: ['posts', { children: ['__PAGE__', {}] }] }, null, null]),
    ),
  };
  const probe = await fetch(`${base}${postPath}?_rsc=0`, { headers, redirect: 'manual' });
  await probe.arrayBuffer();
  const location = probe.headers.get('location');
  if (!location) throw new Error(`no _rsc redirect (${probe.status})`);
  return { url: new URL(location, base).href, headers };
}

const freeSession = await sessionOf('free@bench.example');
const paidSession = await sessionOf('paid@bench.example');
// What each reader is served is their own page: the paywall for the anonymous visitor and the
// free member (the post is not among the free plan's 3), the whole post for the paid member.
const PAYWALL = 'この記事は有料会員限定です'; // the heading of src/components/content/paywall.tsx
for (const [who, session, paywalled] of [
  ['anonymous', '', true],
  ['free', freeSession, true],
  ['paid', paidSession, false],
] as const) {
  const cookie = session ? await browserCookies(session) : '';
  for (let i = 0; i < 2; i++) {
    const page = await (await fetch(base + postPath, { headers: { cookie } })).text();
    // The heading's words are set with line-break opportunities between phrases (BudouX).
    const text = page.replace(/<[^>]*>/g, '');
    if (text.includes(PAYWALL) !== paywalled) throw new Error(`${who} was served another page`);
  }
}
const anonymous = await load(base + postPath, SECONDS);
const free = await load(base + postPath, SECONDS, 10, {
  cookie: await browserCookies(freeSession),
});
const paid = await load(base + postPath, SECONDS, 10, {
  cookie: await browserCookies(paidSession),
});
const anonymousNav = await navigation('');
const anonymousRsc = await load(anonymousNav.url, SECONDS, 10, anonymousNav.headers);
const paidNav = await navigation(await browserCookies(paidSession));
const paidRsc = await load(paidNav.url, SECONDS, 10, paidNav.headers);

// First-load JavaScript per route, and the framework's own floor built by the same Next.js.
const js = [];
for (const route of ['/', postPath, moviePath, '/posts', '/login'])
  js.push({ route, kb: (await firstLoadJsBytes(base + route)) / 1024 });
const floorKb = (await frameworkFloorBytes()) / 1024;

// Lighthouse's standard mobile preset, median of 3, beside the bare App Router page in the same
// rounds (bench/lighthouse.ts).
const bare = await startBareApp();
const lighthouse = await lighthouseRounds([
  { name: 'bench/bare-app', url: bare.url },
  ...['/', postPath, moviePath, '/service-plans'].map((route) => ({
    name: `\`${route}\``,
    url: base + route,
  })),
]).finally(() => bare.stop());

const peak = peakRssMiB(server.process.pid!);
await server.stop();

// The same page rendered by the framework on every request (cache off), for comparison.
const uncached = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '', PAGE_CACHE: 'off' });
const rendered = await load(`http://127.0.0.1:${uncached.port}${postPath}`, SECONDS);
await uncached.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

const row = (name: string, r: Awaited<ReturnType<typeof load>>) =>
  `| ${name} | ${r.requestsPerSec} | ${(r.requestsPerSec / ceiling.requestsPerSec).toFixed(2)}× | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} |`;
console.log(`
## Pages benchmark (${new Date().toISOString().slice(0, 10)}, demo + ${POSTS} posts, ${os.cpus().length} cores, Node ${process.version})

autocannon, 10 connections, ${SECONDS} s; the members' post ${postPath} (${html.length} bytes of HTML for an anonymous visitor); latency in ms; ratio to the plain server of this run.

| target | req/s | ratio | p50 | p99 | errors + non-2xx |
| --- | --- | --- | --- | --- | --- |
${row('plain Node http, the anonymous page bytes', ceiling)}
${row('post page, anonymous', anonymous)}
${row('post page, free member', free)}
${row('post page, paid member', paid)}
${row('client-side navigation to the post (RSC), anonymous', anonymousRsc)}
${row('client-side navigation to the post (RSC), paid member', paidRsc)}
${row('post page, anonymous, PAGE_CACHE=off (rendered per request)', rendered)}

Peak server memory: ${peak} MiB.

Lighthouse, standard mobile preset (simulated throttling), median of 3 beside the bare page:

${lighthouseTable(lighthouse)}

First-load JavaScript (gzip -9). The framework's floor, an App Router site of one layout, one
page and one link built by the same Next.js: ${floorKb.toFixed(1)} KB.

| route | KB | above the floor |
| --- | --- | --- |
${js.map((j) => `| ${j.route} | ${j.kb.toFixed(1)} | ${(j.kb - floorKb).toFixed(1)} |`).join('\n')}
`);
