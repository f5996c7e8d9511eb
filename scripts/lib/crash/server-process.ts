/**
 * The production server as a child process of the crash test: started in its own process group
 * (the launcher and what it starts die together), stopped by a signal to the whole group.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Server = { child: ChildProcess; pid: number; log: string };

export function startServer(root: string, env: NodeJS.ProcessEnv, log: string): Server {
  const out = fs.openSync(log, 'a');
  const child = spawn(
    process.execPath,
    ['--conditions=react-server', 'scripts/launch.mjs', 'start'],
    {
      cwd: root,
      env,
      stdio: ['ignore', out, out],
      detached: true, // its own process group
    },
  );
  fs.closeSync(out);
  if (!child.pid) throw new Error('the server process could not be started');
  return { child, pid: child.pid, log };
}

/** Whether any process of the group is still alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function signalGroup(server: Server, signal: NodeJS.Signals): void {
  try {
    process.kill(-server.pid, signal);
  } catch {
    // already gone
  }
}

/** Signals the group and waits until every process of it has exited. */
export async function stopServer(
  server: Server,
  signal: NodeJS.Signals,
  timeoutMs = 30_000,
): Promise<void> {
  signalGroup(server, signal);
  const until = Date.now() + timeoutMs;
  while (groupAlive(server.pid)) {
    if (Date.now() > until) {
      signalGroup(server, 'SIGKILL');
      throw new Error(`the server (pid ${server.pid}) did not exit within ${timeoutMs / 1000} s`);
    }
    await sleep(50);
  }
}

/** Waits for /api/health to answer 200; the milliseconds it took. */
export async function waitForHealth(base: string, server: Server, timeoutMs: number) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (!groupAlive(server.pid))
      throw new Error(`the server exited while starting (${server.log})`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return Math.round(performance.now() - started);
    await sleep(100);
  }
  throw new Error(`${base}/api/health did not answer within ${timeoutMs / 1000} s`);
}
