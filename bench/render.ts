/**
 * `npm run bench:render`: the pages the page cache cannot answer, rendered on every request,
 * against the framework alone in the same run. On a production build with the demo corpus plus
 * BENCH_POSTS generated posts (default 1,000) on embedded PGlite, autocannon (10 connections,
 * BENCH_SECONDS, default 20 s, in BENCH_SLICES turns, default 20) on a members' `/posts/{id}`:
 * - as a visitor whose request carries a cookie the page cache does not know (the page cache
 *   then renders it: src/server/features/front/request-audience.ts), and as a staff member (an
 *   administrator's session: staff are rendered per request);
 * - a bare App Router app (bench/bare-app plus two pages that call `connection()`, so they
 *   render per request) that renders each one's page body with React: the visitor's (the
 *   post's lead and its paywall) and the staff member's (the whole post), built and started
 *   with `next start` by the same Next.js, with npm start's V8 and malloc settings;
 * - a plain Node http server sending the visitor's page bytes: the ceiling.
 * It prints req/s, p50 and p99, the server's CPU time per request (all its threads, from
 * /proc: what the machine pays, which moves less than req/s with what else it runs) and the
 * ratios of each to the bare page rendering the same body, by both. BENCH_ROUNDS (default 1) repeats the three in
 * turn, for a machine shared with other work. The staff member's audience cookie is renewed
 * before each of their loads, as their browser renews it from the site's answers (it is valid
 * 60 s: an expired one sends the server to the database for the session on every request).
 * With DATABASE_URL (`bash scripts/with-postgres.sh npm run bench:render`) the site runs on that
 * PostgreSQL server, and the database server's CPU per request is printed beside the site's.
 * BENCH_PROFILE=1 then runs the visitor's and the staff member's loads once more on a server
 * started with `--cpu-prof`, and the bare app's on one of its own, and prints where each spends
 * its time per request by family (the framework's renderers, the database, the site's code…)
 * side by side, and the functions with the most self time, the site's own modules apart
 * (bench/cpu-profile.ts). BENCH_PROFILE_DIR=<dir> keeps the profiles there, with each load's
 * window (windows.json).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBuildSettings, runNextBuild, staleBuildReason } from '../scripts/lib/build-freshness';
import { familyTable, summariseProfile } from './cpu-profile';
import { startBareApp } from './first-load-js';
import { SERVER_MEMORY_ENV, SERVER_NODE_FLAGS } from '../scripts/server-process.mjs';
import { bodyText, bodyTree } from './html-tree';
import { type Load, load, peakRssMiB, plainServer, root, startServer } from './lib';
import { cpuMs, postgresCpuMs } from './load/server';
import {
  articleIds,
  browserCookies,
  checkAudiences,
  PAID_EMAIL,
  POSTGRES_SITE_ENV,
  seedSite,
  signIn,
  STAFF_EMAIL,
} from './load/fixture';

const POSTS = Number(process.env.BENCH_POSTS ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const PROFILE = process.env.BENCH_PROFILE === '1';
const SLICES = Number(process.env.BENCH_SLICES ?? 20);
const SITE_URL = 'http://localhost:3000';
/** A cookie no part of the site sets: the page cache answers no request that carries it. */
const UNKNOWN_COOKIE = 'bench_unknown=1';
const PAYWALL = 'id="paywall-heading"';

/** A PostgreSQL server instead of embedded PGlite (`bash scripts/with-postgres.sh npm run bench:render`). */
const databaseUrl = process.env.DATABASE_URL || undefined;
const settings = loadBuildSettings();
if (staleBuildReason(root, settings) && (await runNextBuild(root, settings)) !== 0) process.exit(1);

const databaseName = databaseUrl ? 'PostgreSQL' : 'embedded PGlite';
console.log(`demo corpus + ${POSTS} posts on ${databaseName}`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-render-'));
const { readKey } = await seedSite({ dataDir, databaseUrl, posts: POSTS, staff: true });
const serverEnv = {
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl ?? '',
  ...(databaseUrl ? POSTGRES_SITE_ENV : {}),
};
const server = await startServer(serverEnv);
const base = `http://127.0.0.1:${server.port}`;

const paid = await browserCookies(base, await signIn(base, SITE_URL, PAID_EMAIL));
const postPath = `/posts/${await checkAudiences(base, await articleIds(base, readKey, 30), paid)}`;
const staffSession = await signIn(base, SITE_URL, STAFF_EMAIL);
/** The staff member's cookies as their browser holds them now: a fresh audience cookie. */
const staffCookies = (at: string) => browserCookies(at, staffSession);

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
const staffHtml = await rendered(await staffCookies(base), false);

/**
 * A bare page rendering one of the site's page bodies (bench/render.ts writes it to `json`) with
 * React on every request; it reads it once, as the site holds its code.
 */
const barePage = (json: string) => `import fs from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import { connection } from 'next/server';

const tree = JSON.parse(fs.readFileSync(path.join(process.cwd(), '${json}'), 'utf8'));
const element = (node) =>
  typeof node === 'string' ? node : createElement(node[0], node[1], ...node[2].map(element));

export default async function Page() {
  await connection();
  return <>{tree.map(element)}</>;
}
`;
// Each audience beside the same body (the staff member's page is the whole post).
const bareFiles = {
  'render.json': JSON.stringify(bodyTree(visitorHtml)),
  'render-staff.json': JSON.stringify(bodyTree(staffHtml)),
  'app/render/page.jsx': barePage('render.json'),
  'app/render-staff/page.jsx': barePage('render-staff.json'),
};
// npm start's V8 and malloc settings, so that garbage collection costs both apps alike (the
// site's module conditions are its own: the framework's server would not load with them).
const startBare = (nodeFlags: string[] = []) =>
  startBareApp(bareFiles, {
    nodeFlags: [
      ...SERVER_NODE_FLAGS.filter((flag) => !flag.startsWith('--conditions')),
      ...nodeFlags,
    ],
    env: SERVER_MEMORY_ENV,
  });
const bare = await startBare();
const bareUrl = new URL('/render', bare.url).href;
const bareStaffUrl = new URL('/render-staff', bare.url).href;
const bareHtml = await (await fetch(bareUrl)).text();
const bareStaffHtml = await (await fetch(bareStaffUrl)).text();
if (bodyText(bareHtml) !== bodyText(visitorHtml) || bodyText(bareStaffHtml) !== bodyText(staffHtml))
  throw new Error('the bare app does not render the same text as the site');

/**
 * A load, with the CPU time the server process `pid` spent per request meanwhile, and on
 * PostgreSQL the database server's (on PGlite the database runs in the site's process).
 */
type Measured = Load & { cpuMs: number; databaseCpuMs: number | null; requests: number };
async function measured(
  pid: number,
  url: string,
  cookie: string | undefined,
  seconds: number,
): Promise<Measured> {
  const before = cpuMs(pid);
  // The bare app has no database; a backend ending meanwhile takes its time with it.
  const counted = databaseUrl && pid === sitePid;
  const databaseBefore = counted ? postgresCpuMs() : 0;
  const result = await load(url, seconds, 10, cookie ? { cookie } : {});
  const requests = Math.max(1, result.requestsPerSec * seconds);
  const databaseMs = counted ? Math.max(0, postgresCpuMs() - databaseBefore) : null;
  return {
    ...result,
    requests,
    cpuMs: (cpuMs(pid) - before) / requests,
    databaseCpuMs: databaseMs === null ? null : databaseMs / requests,
  };
}

/**
 * The four loads of a round, each SECONDS long in all, run in SLICES turns, one after another
 * and starting each turn with the next one: a slow spell of this shared machine (the same build
 * moved by 1–3 ms per request between runs of ten seconds) then falls on all four alike; the
 * shorter the turns, the less of it (one build's five rounds: 0.52–0.64× in turns of 2 s,
 * 0.57–0.64× in turns of 1 s). A load's figures add up its turns: CPU and requests summed, its
 * turns' median p50 and worst p99.
 */
type Target = { pid: number; url: string; cookie?: () => Promise<string> };
async function measuredInTurns(targets: Target[]): Promise<Measured[]> {
  const turns: Measured[][] = targets.map(() => []);
  for (let turn = 0; turn < SLICES; turn++)
    for (let k = 0; k < targets.length; k++) {
      const i = (turn + k) % targets.length;
      const target = targets[i]!;
      const cookie = target.cookie ? await target.cookie() : undefined;
      turns[i]!.push(await measured(target.pid, target.url, cookie, SECONDS / SLICES));
    }
  return turns.map((parts) => {
    const requests = parts.reduce((sum, part) => sum + part.requests, 0);
    const total = (of: (part: Measured) => number) =>
      parts.reduce((sum, part) => sum + of(part) * part.requests, 0) / requests;
    const p50s = parts.map((part) => part.p50).sort((a, b) => a - b);
    return {
      requestsPerSec: Math.round(requests / SECONDS),
      p50: p50s[Math.floor(p50s.length / 2)]!,
      p975: Math.max(...parts.map((part) => part.p975)),
      p99: Math.max(...parts.map((part) => part.p99)),
      errors: parts.reduce((sum, part) => sum + part.errors, 0),
      non2xx: parts.reduce((sum, part) => sum + part.non2xx, 0),
      requests,
      cpuMs: total((part) => part.cpuMs),
      databaseCpuMs: parts[0]!.databaseCpuMs === null ? null : total((p) => p.databaseCpuMs ?? 0),
    };
  });
}

type Round = {
  ceiling: Load;
  visitor: Measured;
  staff: Measured;
  bare: Measured;
  bareStaff: Measured;
};
const rounds: Round[] = [];
// Both warmed first (the JIT, the database's caches), as a live server is.
await load(base + postPath, 2, 10, { cookie: UNKNOWN_COOKIE });
await load(base + postPath, 2, 10, { cookie: await staffCookies(base) });
await load(bareUrl, 2);
await load(bareStaffUrl, 2);
const sitePid = server.process.pid!;
for (let round = 0; round < ROUNDS; round++) {
  const plain = await plainServer(Buffer.from(visitorHtml), 'text/html; charset=utf-8');
  const ceiling = await load(`http://127.0.0.1:${plain.port}/`, SECONDS);
  plain.close();
  const [visitor, staff, bareVisitor, bareStaff] = await measuredInTurns([
    { pid: sitePid, url: base + postPath, cookie: () => Promise.resolve(UNKNOWN_COOKIE) },
    { pid: sitePid, url: base + postPath, cookie: () => staffCookies(base) },
    { pid: bare.pid, url: bareUrl },
    { pid: bare.pid, url: bareStaffUrl },
  ]);
  rounds.push({
    ceiling,
    visitor: visitor!,
    staff: staff!,
    bare: bareVisitor!,
    bareStaff: bareStaff!,
  });
}
const sitePeak = peakRssMiB(server.process.pid!);
const barePeak = peakRssMiB(bare.pid);
await server.stop();
bare.stop();

const databaseColumn = databaseUrl ? ' database server CPU ms per request |' : '';
const row = (name: string, r: Load | Measured, ceiling: Load) =>
  `| ${name} | ${r.requestsPerSec} | ${(r.requestsPerSec / ceiling.requestsPerSec).toFixed(2)}× | ${'cpuMs' in r ? r.cpuMs.toFixed(1) : ''} |${databaseUrl ? ` ${'cpuMs' in r && r.databaseCpuMs !== null ? r.databaseCpuMs.toFixed(1) : ''} |` : ''} ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} |`;
const ratio = (r: Load, of: Load) => (r.requestsPerSec / of.requestsPerSec).toFixed(2);
const cpuRatio = (r: Measured, of: Measured) => (of.cpuMs / r.cpuMs).toFixed(2);
/** On PostgreSQL: the site's process and the database server's together, against the bare page. */
const withDatabase = (r: Round) =>
  databaseUrl
    ? ` With the database server's CPU counted: unknown cookie **${(r.bare.cpuMs / (r.visitor.cpuMs + (r.visitor.databaseCpuMs ?? 0))).toFixed(2)}×**, staff **${(r.bareStaff.cpuMs / (r.staff.cpuMs + (r.staff.databaseCpuMs ?? 0))).toFixed(2)}×**.`
    : '';
console.log(`
## Rendering per request (${new Date().toISOString().slice(0, 10)}, demo + ${POSTS} posts on ${databaseName}, ${os.cpus().length} cores, Node ${process.version}, load average ${os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' ')})

autocannon, 10 connections, ${SECONDS} s for each load in ${SLICES} turns of ${SECONDS / SLICES} s, the four loads in turn (p50: the turns' median; p99: their worst); the members' post ${postPath}: ${visitorHtml.length} characters of HTML for the visitor with an unknown cookie (the post's lead and its paywall), ${staffHtml.length} for the staff member (the whole post), ${bareHtml.length} and ${bareStaffHtml.length} from the bare app rendering each body; latency in ms; ratio to the plain server of the same round; CPU: the server process's user + system time (all threads) per request. Both apps run with npm start's V8 and malloc settings (scripts/server-process.mjs).

${rounds
  .map(
    (
      r,
      i,
    ) => `| round ${i + 1} | req/s | ratio to plain | CPU ms per request |${databaseColumn} p50 | p99 | errors + non-2xx |
| --- | --- | --- | --- |${databaseUrl ? ' --- |' : ''} --- | --- | --- |
${row('plain Node http, the visitor page bytes', r.ceiling, r.ceiling)}
${row("bare App Router page, the visitor's body", r.bare, r.ceiling)}
${row("bare App Router page, the staff member's body", r.bareStaff, r.ceiling)}
${row('post page, unknown cookie (rendered per request)', r.visitor, r.ceiling)}
${row('post page, staff member (rendered per request)', r.staff, r.ceiling)}

Site / bare page with the same body, by req/s: unknown cookie **${ratio(r.visitor, r.bare)}×**, staff **${ratio(r.staff, r.bareStaff)}×**; by CPU per request: unknown cookie **${cpuRatio(r.visitor, r.bare)}×**, staff **${cpuRatio(r.staff, r.bareStaff)}×**.${withDatabase(r)}`,
  )
  .join('\n\n')}

Peak memory: site ${sitePeak} MiB, bare app ${barePeak} MiB.
`);

if (PROFILE) {
  // The site under the visitor's load, then the staff member's, on one profiled server; the
  // profile starts as the process does, and only the measured loads' samples count.
  // BENCH_PROFILE_DIR keeps the profiles, with each load's window, for a closer look.
  const profiles = process.env.BENCH_PROFILE_DIR ?? dataDir;
  const dir = path.join(profiles, 'profile');
  const spawned = performance.now();
  const profiled = await startServer(serverEnv, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  const profiledBase = `http://127.0.0.1:${profiled.port}`;
  const underProfile = async (cookie: string) => {
    await load(profiledBase + postPath, 2, 10, { cookie }); // warm, as above
    const fromMs = performance.now() - spawned;
    const { requestsPerSec } = await load(profiledBase + postPath, SECONDS, 10, { cookie });
    return { window: { fromMs, toMs: performance.now() - spawned }, requestsPerSec };
  };
  const visitor = await underProfile(UNKNOWN_COOKIE);
  const staff = await underProfile(await staffCookies(profiledBase));
  await profiled.stop();
  // The bare app on a server of its own for each body, stopped as its load ends: its profile's
  // last seconds.
  const profileBare = async (route: string, bareDir: string) => {
    const profiledBare = await startBare(['--cpu-prof', `--cpu-prof-dir=${bareDir}`]);
    const profiledBareUrl = new URL(route, profiledBare.url).href;
    await load(profiledBareUrl, 2);
    const bareStarted = performance.now();
    const bareLoad = await load(profiledBareUrl, SECONDS);
    const bareWindow = { lastMs: performance.now() - bareStarted };
    await stopped(profiledBare);
    return { dir: bareDir, window: bareWindow, requestsPerSec: bareLoad.requestsPerSec };
  };
  const bareVisitor = await profileBare('/render', path.join(profiles, 'profile-bare'));
  const bareStaff = await profileBare('/render-staff', path.join(profiles, 'profile-bare-staff'));
  const requests = (r: { requestsPerSec: number }) => r.requestsPerSec * SECONDS;
  if (process.env.BENCH_PROFILE_DIR)
    fs.writeFileSync(
      path.join(profiles, 'windows.json'),
      JSON.stringify({ visitor, staff, bareVisitor, bareStaff, seconds: SECONDS }, null, 2),
    );
  console.log(`Profiles (\`--cpu-prof\`; req/s under the profiler: bare ${bareVisitor.requestsPerSec} and ${bareStaff.requestsPerSec} (the visitor's and the staff member's body), unknown cookie ${visitor.requestsPerSec}, staff ${staff.requestsPerSec}). Self time per request by family:

${familyTable(root, [
  { label: "bare page, the visitor's body", ...bareVisitor, requests: requests(bareVisitor) },
  { label: 'post page, unknown cookie', dir, window: visitor.window, requests: requests(visitor) },
  { label: "bare page, the staff member's body", ...bareStaff, requests: requests(bareStaff) },
  { label: 'post page, staff member', dir, window: staff.window, requests: requests(staff) },
])}

The visitor's load (unknown cookie):

${summariseProfile(dir, root, visitor.window)}
The staff member's load:

${summariseProfile(dir, root, staff.window)}`);
}
fs.rmSync(dataDir, { recursive: true, force: true });

/** Stops a bare app and waits for its process to end (so that its profile is written). */
async function stopped(app: { pid: number; stop: () => void }): Promise<void> {
  app.stop();
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(app.pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
