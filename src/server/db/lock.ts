import 'server-only';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * PGlite has no lock on its data directory, and two processes writing it corrupt it. This
 * lock file records the owner's pid; a lock whose owner is no longer alive is taken over.
 */

export const LOCK_FILE = 'pglite.lock';

export type LockOwner = { pid: number; hostname: string; startedAt: string };

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `データディレクトリ ${dataDir} は別のプロセス (pid ${owner.pid}) が使用中です。` +
        '組み込みデータベース (PGlite) は一度に一つのプロセスしか開けません。' +
        `Data directory ${dataDir} is in use by pid ${owner.pid}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLockOwner(dataDir: string): LockOwner | null {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' ? owner : null;
  } catch {
    return null;
  }
}

/** The live owner of the lock, or null when the directory is free (or its lock is stale). */
export function liveLockOwner(dataDir: string): LockOwner | null {
  const owner = readLockOwner(dataDir);
  if (!owner) return null;
  if (owner.hostname !== os.hostname()) return owner; // cannot check another host: assume alive
  return isAlive(owner.pid) ? owner : null;
}

export type DataDirLock = { release: () => void };

export function acquireDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const me: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me), { flag: 'wx', mode: 0o600 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        if (readLockOwner(dataDir)?.pid === process.pid) fs.rmSync(file, { force: true });
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = liveLockOwner(dataDir);
      if (owner) throw new DataDirLockedError(dataDir, owner);
      fs.rmSync(file, { force: true }); // stale: its owner is gone
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
