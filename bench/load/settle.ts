import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * The load generator (autocannon) runs on this process's main thread. Work on its other threads
 * during a measurement takes a core from it. V8's collector is the main case: in a slow run of
 * the plain server, its four workers were equally busy (parallel marking) for 2.9 s of CPU in
 * 5 s, against 0.4-0.8 s in fast runs, and the plain server's rate fell to about half (about
 * 5,000 req/s against about 9,000): the bench's heap holds the garbage of seeding its database.
 * A measurement starts after a full collection, with those threads quiet.
 *
 * CPU time (ms) of this process's threads other than the main one: V8's workers, libuv's pool.
 */
function backgroundCpuMs(): number {
  let ms = 0;
  for (const task of fs.readdirSync('/proc/self/task')) {
    if (Number(task) === process.pid) continue; // the main thread
    try {
      const stat = fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ms += (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 10 ms ticks
    } catch {
      /* a thread that ended meanwhile */
    }
  }
  return ms;
}

/** A full collection of this process's heap, on demand (V8's `gc`, exposed at run time). */
const collectGarbage = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

/**
 * Waits until this process's background threads are quiet (under 5 % of a core over half a
 * second), at most `limitMs`, before a measurement; returns how long it waited. Linux only
 * (/proc): elsewhere it returns at once.
 */
export async function settleBackgroundWork(limitMs = 30_000): Promise<number> {
  // What seeding and the warm-up left: collected now rather than in the middle of a measurement.
  collectGarbage();
  if (!fs.existsSync('/proc/self/task')) return 0;
  const started = performance.now();
  for (;;) {
    const before = backgroundCpuMs();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const waited = performance.now() - started;
    if (backgroundCpuMs() - before <= 25 || waited >= limitMs) return Math.round(waited);
  }
}
