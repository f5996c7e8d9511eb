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
export async function startInstance(
  env: Record<string, string>,
  logFile: string,
  extraNodeFlags: string[] = [],
) {
  const port = await freePort();
  const log = fs.openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, ...extraNodeFlags, path.join(root, 'scripts/launch.mjs'), 'start'],
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

/** Every process the given one started, and theirs (Linux: /proc). */
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
 * The site's node process: the one started, which serves the site itself (scripts/launch.mjs
 * runs the server entry in its own process). Not the largest of its group: the reading
 * analyser's child (src/server/services/cms/search/readings.ts) can be larger while it works, and a soak
 * that sampled it read 0 once it ended.
 */
export function serverPid(instance: Instance): number {
  return instance.child.pid!;
}

export type MemorySampler = {
  /** The resident memory now, in MiB. */
  now: () => number;
  /** Samples (MiB) since `mark`, one a second. */
  since: (mark: number) => number[];
  mark: () => number;
  /** The most the processes the server started (the reading analyser) held at once, in MiB. */
  childrenPeak: () => number;
  /**
   * The whole process tree (the server and its children, summed at each sample), in MiB: the
   * most since the sampler started, and the last sample.
   */
  tree: () => { peak: number; end: number };
  stop: () => void;
};

/**
 * CPU time (user + system, all threads) the process has used, in ms: beside throughput, the
 * cost of a request that does not depend on what else the machine runs. 0 off Linux.
 */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
/** Linux's USER_HZ, the unit of /proc/PID/stat's times (100 on every current kernel). */
const CLOCK_TICKS = 100;

/** Samples the server process's resident memory (VmRSS) and its children's every second. */
export function sampleMemory(pid: number): MemorySampler {
  const samples: number[] = [];
  let childrenPeak = 0;
  const tree = { peak: 0, end: 0 };
  const now = () => Math.round(rssKiB(pid) / 1024);
  const timer = setInterval(() => {
    const server = rssKiB(pid);
    samples.push(Math.round(server / 1024));
    const children = descendants(pid).reduce((kib, child) => kib + rssKiB(child), 0);
    childrenPeak = Math.max(childrenPeak, Math.round(children / 1024));
    tree.end = Math.round((server + children) / 1024);
    tree.peak = Math.max(tree.peak, tree.end);
  }, 1000);
  timer.unref();
  return {
    now,
    childrenPeak: () => childrenPeak,
    tree: () => ({ ...tree }),
    mark: () => samples.length,
    since: (mark) => samples.slice(mark),
    stop: () => clearInterval(timer),
  };
}
