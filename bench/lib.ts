/** Shared helpers of the benchmark scripts: a production server, load runs, memory. */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../scripts/lib/free-port';
import { SERVER_MEMORY_ENV, SERVER_NODE_FLAGS } from '../scripts/server-process.mjs';

export const root = path.resolve(import.meta.dirname, '..');

export { freePort };

export type Server = {
  port: number;
  process: ChildProcess;
  readyMs: number;
  stop: () => Promise<void>;
};

/**
 * Starts the production server as `npm start` runs it (the build must exist); waits for
 * /api/health. `nodeFlags` adds flags Node refuses in NODE_OPTIONS (`--cpu-prof`).
 */
export async function startServer(
  env: Record<string, string>,
  nodeFlags: string[] = [],
): Promise<Server> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, ...nodeFlags, path.join(root, 'scripts/launch.mjs'), 'start'],
    {
      cwd: root,
      env: {
        ...process.env,
        ...SERVER_MEMORY_ENV,
        NEXT_TELEMETRY_DISABLED: '1',
        PORT: String(port),
        // The SITE_URL of a default build, so that `npm start` serves it instead of rebuilding
        // for the bench's random port (the origin only shapes canonical URLs).
        SITE_URL: 'http://localhost:3000',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const readyMs = performance.now() - started;
  return {
    port,
    process: child,
    readyMs,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Peak resident memory (VmHWM) of a process and its children, in MiB (Linux). */
export function peakRssMiB(pid: number): number {
  const pids = [pid];
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    if (children) pids.push(...children.split(/\s+/).map(Number));
  } catch {
    /* not Linux or gone */
  }
  let kib = 0;
  for (const p of pids) {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      kib += Number(match?.[1] ?? 0);
    } catch {
      /* gone */
    }
  }
  return Math.round(kib / 1024);
}

export type Load = {
  requestsPerSec: number;
  p50: number;
  p975: number;
  p99: number;
  errors: number;
  non2xx: number;
};

export async function load(
  url: string,
  seconds = 10,
  connections = 10,
  headers: Record<string, string> = {},
): Promise<Load> {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return {
    requestsPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p975: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** A plain Node http server answering every request with the given bytes: the ceiling. */
export async function plainServer(
  body: Buffer,
  contentType: string,
): Promise<{ port: number; close: () => void }> {
  const port = await freePort();
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, close: () => server.close() };
}
