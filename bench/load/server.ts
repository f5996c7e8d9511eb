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

/** A figure of /proc/PID/status in KiB: VmRSS now, VmHWM the most it has been resident. */
function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(
      fs.readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return Number(match?.[1] ?? 0);
  } catch {
    return 0;
  }
}
const rssKiB = (pid: number) => statusKiB(pid, 'VmRSS');

/** What a child is, by its executable (node: the reading analyser; anything else is named). */
function executable(pid: number): string {
  try {
    return path.basename(fs.readlinkSync(`/proc/${pid}/exe`));
  } catch {
    return '?';
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
   * most since the sampler started, what the server and its children (by executable) held at
   * that sample, and the last sample.
   */
  tree: () => { peak: number; end: number; atPeak: { server: number; children: string } };
  /**
   * The most the server process has held since it started, as the kernel counts it (VmHWM), in
   * MiB: it sees what a one-second sample misses, such as the start before the first sample.
   */
  highWater: () => number;
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
/**
 * The CPU time (ms) of every PostgreSQL server process on the machine (the postmaster and its
 * backends: the throwaway server of scripts/with-postgres.sh is the only one), for the share of
 * a request the database does outside the site's process.
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
        total += cpuMs(Number(entry));
    } catch {
      /* ended meanwhile */
    }
  }
  return total;
}
/** Linux's USER_HZ, the unit of /proc/PID/stat's times (100 on every current kernel). */
const CLOCK_TICKS = 100;

/** Samples the server process's resident memory (VmRSS) and its children's every second. */
export function sampleMemory(pid: number): MemorySampler {
  const samples: number[] = [];
  let childrenPeak = 0;
  const tree = { peak: 0, end: 0, atPeak: { server: 0, children: '' } };
  const mib = (kib: number) => Math.round(kib / 1024);
  const now = () => mib(rssKiB(pid));
  const timer = setInterval(() => {
    const server = rssKiB(pid);
    samples.push(mib(server));
    const held = descendants(pid).map((child) => ({ child, kib: rssKiB(child) }));
    const children = held.reduce((kib, { kib: each }) => kib + each, 0);
    childrenPeak = Math.max(childrenPeak, mib(children));
    tree.end = mib(server + children);
    if (tree.end > tree.peak) {
      tree.peak = tree.end;
      tree.atPeak = {
        server: mib(server),
        children: held.map(({ child, kib }) => `${executable(child)} ${mib(kib)}`).join(', '),
      };
    }
  }, 1000);
  timer.unref();
  return {
    now,
    childrenPeak: () => childrenPeak,
    tree: () => ({ ...tree }),
    highWater: () => mib(statusKiB(pid, 'VmHWM')),
    mark: () => samples.length,
    since: (mark) => samples.slice(mark),
    stop: () => clearInterval(timer),
  };
}
