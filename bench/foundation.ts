/**
 * `npm run bench`: start-up and serving figures of the app shell on this machine.
 * - cold start (new embedded database: create + migrate) and warm start, until /api/health is 200
 * - `/` (the home page, anonymous: the front server's page cache) and `/api/health` (one database query) with autocannon, 10 connections,
 *   against a plain Node http server serving the same home-page bytes
 * - peak resident memory of the server
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBuildSettings, runNextBuild, staleBuildReason } from '../scripts/lib/build-freshness';
import { load, peakRssMiB, plainServer, root, startServer } from './lib';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const settings = loadBuildSettings();
if (staleBuildReason(root, settings)) {
  if ((await runNextBuild(root, settings)) !== 0) process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-'));
const env = { DATA_DIR: dataDir, DATABASE_URL: '' };

const cold = await startServer(env);
await cold.stop();
const server = await startServer(env);
const base = `http://127.0.0.1:${server.port}`;

const html = Buffer.from(await (await fetch(`${base}/`)).arrayBuffer());
const home = await load(`${base}/`, seconds);
const health = await load(`${base}/api/health`, seconds);
const peak = peakRssMiB(server.process.pid!);
await server.stop();

const plain = await plainServer(html, 'text/html; charset=utf-8');
const ceiling = await load(`http://127.0.0.1:${plain.port}/`, seconds);
plain.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const row = (name: string, l: typeof home) =>
  `| ${name} | ${l.requestsPerSec} | ${l.p50} | ${l.p99} | ${l.errors + l.non2xx} |`;
console.log(`
## Foundation benchmark (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Node ${process.version})

| start | ms until /api/health answers 200 |
| --- | --- |
| cold (new embedded database: create + migrate) | ${Math.round(cold.readyMs)} |
| warm (existing database) | ${Math.round(server.readyMs)} |

autocannon, 10 connections, ${seconds} s each; home page ${html.length} bytes.

| target | req/s | p50 ms | p99 ms | errors + non-2xx |
| --- | --- | --- | --- | --- |
${row('`/` anonymous (front server, page cache)', home)}
${row('`/api/health` (one query on PGlite)', health)}
${row('plain Node http, same home bytes', ceiling)}

Home page at ${(home.requestsPerSec / ceiling.requestsPerSec).toFixed(2)}× the plain server; peak server memory ${peak} MiB.
`);
