/** The production instance under load: started in its own process group, its memory sampled. */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, root } from '../lib';
import { SERVER_MEMORY_ENV, SERVER_NODE_FLAGS } from '../../scripts/server-process.mjs';

export type Instance = {
  base: string;
  child: ChildProcess;
  logFile: string;
  stop: () => Promise<void>;
};

/**
 * `npm start` as an operator runs it (scripts/start.ts), its output in `logFile`. Detached: the
 * group (the launcher and anything it starts) is signalled as one.
 */
export async function startInstance(env: Record<string, string>, logFile: string) {
  const port = await freePort();
  const log = fs.openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, path.join(root, 'scripts/launch.mjs'), 'start'],
    {
      cwd: root,
      env: {
        ...process.env,
        ...SERVER_MEMORY_ENV,
        NEXT_TELEMETRY_DISABLED: '1',
        PORT: String(port),
        ...env,
      },
      stdio: ['ignore', log, log],
      detached: true,
    },
  );
  fs.closeSync(log);
  const base = `http://127.0.0.1:${port}`;
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, name);
    } catch {
      /* already gone */
    }
  };
  const until = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`サーバーが起動しませんでした (exit ${child.exitCode}): ${logFile}`);
    if (Date.now() > until) {
      signal('SIGKILL');
      throw new Error(`サーバーが 180 秒以内に応答しませんでした: ${logFile}`);
    }
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      const kill = setTimeout(() => signal('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      signal('SIGTERM');
    });
  process.once('exit', () => signal('SIGKILL'));
  return { base, child, logFile, stop } satisfies Instance;
}

function descendants(pid: number): number[] {
  const found: number[] = [];
  const walk = (parent: number) => {
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${parent}/task`);
    } catch {
      return;
    }
    for (const task of tasks) {
      let children = '';
      try {
        children = fs.readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8').trim();
      } catch {
        continue;
      }
      for (const child of children ? children.split(/\s+/).map(Number) : []) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

function rssKiB(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(match?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * The site's node process: the largest in the group (scripts/launch.mjs runs the server in its own process; a build it starts is another).
 * Linux only (/proc); elsewhere the figures read 0.
 */
export function serverPid(instance: Instance): number {
  const pids = [instance.child.pid!, ...descendants(instance.child.pid!)];
  return pids.reduce((best, pid) => (rssKiB(pid) > rssKiB(best) ? pid : best), pids[0]!);
}

export type MemorySampler = {
  /** The resident memory now, in MiB. */
  now: () => number;
  /** Samples (MiB) since `mark`, one a second. */
  since: (mark: number) => number[];
  mark: () => number;
  stop: () => void;
};

/** Samples the server process's resident memory (VmRSS) every second. */
export function sampleMemory(pid: number): MemorySampler {
  const samples: number[] = [];
  const now = () => Math.round(rssKiB(pid) / 1024);
  const timer = setInterval(() => samples.push(now()), 1000);
  timer.unref();
  return {
    now,
    mark: () => samples.length,
    since: (mark) => samples.slice(mark),
    stop: () => clearInterval(timer),
  };
}
