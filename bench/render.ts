/**
 * `npm run bench:render`: the pages the page cache cannot answer, rendered on every request,
 * against the framework alone in the same run. On a production build with the demo corpus plus
 * BENCH_POSTS generated posts (default 1,000) on embedded PGlite, autocannon (10 connections,
 * BENCH_SECONDS, default 10 s) on a members' `/posts/{id}`:
 * - as a visitor whose request carries a cookie the page cache does not know (the page cache
 *   then renders it: src/server/features/front/request-audience.ts), and as a staff member (an
 *   administrator's session: staff are rendered per request);
 * - a bare App Router app (bench/bare-app plus one page that calls `connection()`, so it renders
 *   per request) that renders the visitor's page body with React, built and started with
 *   `next start` by the same Next.js, with npm start's V8 and malloc settings;
 * - a plain Node http server sending the visitor's page bytes: the ceiling.
 * It prints req/s, p50 and p99 and the ratio of the site to the bare app. BENCH_ROUNDS (default
 * 1) repeats the three in turn, for a machine shared with other work. BENCH_PROFILE=1 then runs
 * the visitor's load once more on a server started with `--cpu-prof` and prints the functions
 * with the most self time, the site's own modules apart (bench/cpu-profile.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBuildSettings, runNextBuild, staleBuildReason } from '../scripts/lib/build-freshness';
import { summariseProfile } from './cpu-profile';
import { startBareApp } from './first-load-js';
import { SERVER_MEMORY_ENV, SERVER_NODE_FLAGS } from '../scripts/server-process.mjs';
import { bodyText, bodyTree } from './html-tree';
import { type Load, load, peakRssMiB, plainServer, root, startServer } from './lib';
import {
  articleIds,
  browserCookies,
  checkAudiences,
  PAID_EMAIL,
  seedSite,
  signIn,
  STAFF_EMAIL,
} from './load/fixture';

const POSTS = Number(process.env.BENCH_POSTS ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const PROFILE = process.env.BENCH_PROFILE === '1';
const SITE_URL = 'http://localhost:3000';
/** A cookie no part of the site sets: the page cache answers no request that carries it. */
const UNKNOWN_COOKIE = 'bench_unknown=1';
const PAYWALL = 'id="paywall-heading"';

const settings = loadBuildSettings();
if (staleBuildReason(root, settings) && (await runNextBuild(root, settings)) !== 0) process.exit(1);

console.log(`demo corpus + ${POSTS} posts on embedded PGlite`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-render-'));
const { readKey } = await seedSite({ dataDir, databaseUrl: undefined, posts: POSTS, staff: true });
const serverEnv = { DATA_DIR: dataDir, DATABASE_URL: '' };
const server = await startServer(serverEnv);
const base = `http://127.0.0.1:${server.port}`;

const paid = await browserCookies(base, await signIn(base, SITE_URL, PAID_EMAIL));
const postPath = `/posts/${await checkAudiences(base, await articleIds(base, readKey, 30), paid)}`;
const staff = await browserCookies(base, await signIn(base, SITE_URL, STAFF_EMAIL));

/** The page as `cookie` gets it, checked to be rendered (not the page cache's copy). */
async function rendered(cookie: string, paywalled: boolean): Promise<string> {
  let html = '';
  for (let i = 0; i < 2; i++) {
    const response = await fetch(base + postPath, { headers: { cookie } });
    html = await response.text();
    if (response.status !== 200) throw new Error(`${postPath}: ${response.status}`);
    if (response.headers.get('x-page-cache')) throw new Error(`${postPath} came from the cache`);
    if (html.includes(PAYWALL) !== paywalled) throw new Error(`${postPath}: another page`);
  }
  return html;
}
const visitorHtml = await rendered(UNKNOWN_COOKIE, true);
await rendered(staff, false);

// The bare app renders the visitor's body; it reads it once, as the site holds its code.
const bare = await startBareApp(
  {
    'render.json': JSON.stringify(bodyTree(visitorHtml)),
    'app/render/page.jsx': `import fs from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import { connection } from 'next/server';

// The site's page body (bench/render.ts wrote it), rendered by React on every request.
const tree = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'render.json'), 'utf8'));
const element = (node) =>
  typeof node === 'string' ? node : createElement(node[0], node[1], ...node[2].map(element));

export default async function Page() {
  await connection();
  return <>{tree.map(element)}</>;
}
`,
  },
  // npm start's V8 and malloc settings, so that garbage collection costs both apps alike (the
  // site's module conditions are its own: the framework's server would not load with them).
  {
    nodeFlags: SERVER_NODE_FLAGS.filter((flag) => !flag.startsWith('--conditions')),
    env: SERVER_MEMORY_ENV,
  },
);
const bareUrl = new URL('/render', bare.url).href;
const bareHtml = await (await fetch(bareUrl)).text();
if (bodyText(bareHtml) !== bodyText(visitorHtml))
  throw new Error('the bare app does not render the same text as the site');

type Round = { ceiling: Load; visitor: Load; staff: Load; bare: Load };
const rounds: Round[] = [];
// Both warmed first (the JIT, the database's caches), as a live server is.
await load(base + postPath, 2, 10, { cookie: UNKNOWN_COOKIE });
await load(bareUrl, 2);
for (let round = 0; round < ROUNDS; round++) {
  const plain = await plainServer(Buffer.from(visitorHtml), 'text/html; charset=utf-8');
  const ceiling = await load(`http://127.0.0.1:${plain.port}/`, SECONDS);
  plain.close();
  rounds.push({
    ceiling,
    visitor: await load(base + postPath, SECONDS, 10, { cookie: UNKNOWN_COOKIE }),
    staff: await load(base + postPath, SECONDS, 10, { cookie: staff }),
    bare: await load(bareUrl, SECONDS),
  });
}
const sitePeak = peakRssMiB(server.process.pid!);
const barePeak = peakRssMiB(bare.pid);
await server.stop();
bare.stop();

const row = (name: string, r: Load, ceiling: Load) =>
  `| ${name} | ${r.requestsPerSec} | ${(r.requestsPerSec / ceiling.requestsPerSec).toFixed(2)}× | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} |`;
const ratio = (r: Load, of: Load) => (r.requestsPerSec / of.requestsPerSec).toFixed(2);
console.log(`
## Rendering per request (${new Date().toISOString().slice(0, 10)}, demo + ${POSTS} posts, ${os.cpus().length} cores, Node ${process.version}, load average ${os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' ')})

autocannon, 10 connections, ${SECONDS} s; the members' post ${postPath}: ${visitorHtml.length} characters of HTML for the visitor with an unknown cookie, ${bareHtml.length} from the bare app; latency in ms; ratio to the plain server of the same round. Both apps run with npm start's V8 and malloc settings (scripts/server-process.mjs).

${rounds
  .map(
    (r, i) => `| round ${i + 1} | req/s | ratio to plain | p50 | p99 | errors + non-2xx |
| --- | --- | --- | --- | --- | --- |
${row('plain Node http, the visitor page bytes', r.ceiling, r.ceiling)}
${row('bare App Router page, rendered per request', r.bare, r.ceiling)}
${row('post page, unknown cookie (rendered per request)', r.visitor, r.ceiling)}
${row('post page, staff member (rendered per request)', r.staff, r.ceiling)}

Site / bare: unknown cookie **${ratio(r.visitor, r.bare)}×**, staff **${ratio(r.staff, r.bare)}×**.`,
  )
  .join('\n\n')}

Peak memory: site ${sitePeak} MiB, bare app ${barePeak} MiB.
`);

if (PROFILE) {
  const dir = path.join(dataDir, 'profile');
  const spawned = performance.now();
  const profiled = await startServer(serverEnv, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  const profiledBase = `http://127.0.0.1:${profiled.port}`;
  await load(profiledBase + postPath, 2, 10, { cookie: UNKNOWN_COOKIE }); // warm, as above
  // The profile starts as the process does; only the measured load's samples count.
  const fromMs = performance.now() - spawned;
  const underProfile = await load(profiledBase + postPath, SECONDS, 10, { cookie: UNKNOWN_COOKIE });
  const toMs = performance.now() - spawned;
  await profiled.stop();
  console.log(
    `Profile (\`--cpu-prof\`, the visitor's load, ${underProfile.requestsPerSec} req/s under the profiler):\n\n${summariseProfile(dir, root, { fromMs, toMs })}`,
  );
}
fs.rmSync(dataDir, { recursive: true, force: true });
