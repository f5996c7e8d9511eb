import 'server-only';
import { OperatorError } from '@/lib/errors';
import { singleton } from '@/lib/singleton';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * PGlite has no lock on its data directory, and two processes writing it corrupt it. This
 * lock file records the owner's pid; a lock whose owner is no longer alive is taken over.
 *
 * Every step that can race is atomic. A lock is written whole to a temporary file and
 * hard-linked into place, and link() fails when the lock exists. A stale lock is removed only
 * by the one process that created the claim file named after that lock's exact content (each
 * lock's content is unique), so of many processes finding the same dead owner, one removes
 * its lock and link() then lets exactly one of them in. (proper-lockfile was not used: its
 * stale takeover is a check-then-remove that two processes can both pass, and it judges
 * staleness by an mtime that a busy event loop may fail to refresh.)
 */

export const LOCK_FILE = 'pglite.lock';

export type LockOwner = { pid: number; hostname: string; startedAt: string };

export class DataDirLockedError extends OperatorError {
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

const CLAIM_PREFIX = `${LOCK_FILE}.claim-`;
const TEMP_PREFIX = `${LOCK_FILE}.tmp-`;
/** How long an unreadable lock counts as being written (only without hard links). */
const UNREADABLE_GRACE_MS = 5_000;
/** How long to wait for another process's takeover before giving up. */
const ACQUIRE_TIMEOUT_MS = 10_000;

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !hasExited(pid);
}

/**
 * A killed process that nobody has reaped yet (a zombie, or one being torn down) still answers
 * `kill(pid, 0)`; in a container whose init does not reap orphans it may stay so for good. On
 * Linux its state says it has exited, and its lock is then stale. Elsewhere: assume alive.
 */
function hasExited(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

function parseOwner(raw: string): LockOwner | null {
  try {
    const owner = JSON.parse(raw) as LockOwner;
    return typeof owner.pid === 'number' ? owner : null;
  } catch {
    return null;
  }
}

function readRaw(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export function readLockOwner(dataDir: string): LockOwner | null {
  try {
    return parseOwner(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'));
  } catch {
    return null;
  }
}

function ownerIsLive(owner: LockOwner): boolean {
  if (owner.hostname !== os.hostname()) return true; // cannot check another host: assume alive
  return isAlive(owner.pid);
}

/** The live owner of the lock, or null when the directory is free (or its lock is stale). */
export function liveLockOwner(dataDir: string): LockOwner | null {
  const owner = readLockOwner(dataDir);
  return owner && ownerIsLive(owner) ? owner : null;
}

/** Whether a lock or claim file with this content may be removed: its owner is gone. */
function isStale(file: string, raw: string): boolean {
  const owner = parseOwner(raw);
  if (owner) return !ownerIsLive(owner);
  // Unreadable: being written (filesystems without hard links), or left half-written by a crash.
  try {
    return Date.now() - fs.statSync(file).mtimeMs > UNREADABLE_GRACE_MS;
  } catch {
    return false;
  }
}

function ownContent(): string {
  return JSON.stringify({
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
    nonce: randomBytes(12).toString('hex'),
  });
}

/** Creates `target` holding `content`, whole, unless it exists. False when it exists. */
function createExclusive(dir: string, target: string, content: string): boolean {
  const temp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(temp, content, { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(temp, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error;
    // No hard links here: an exclusive create; readers give an unreadable file a grace period.
    try {
      fs.copyFileSync(temp, target, fs.constants.COPYFILE_EXCL);
      return true;
    } catch (copyError) {
      if ((copyError as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw copyError;
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/**
 * Removes `file` if it still holds `raw`, whose owner is gone. Only the process that created
 * the claim named after `raw` may do so, so the check and the removal cannot interleave with
 * another process's. A claim whose creator died is removed the same way, one level up.
 */
function removeStale(dir: string, file: string, raw: string, depth = 0): void {
  if (depth > 4) return;
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 32);
  const claim = path.join(dir, CLAIM_PREFIX + hash);
  if (!createExclusive(dir, claim, ownContent())) {
    const claimRaw = readRaw(claim);
    if (claimRaw !== null && isStale(claim, claimRaw)) removeStale(dir, claim, claimRaw, depth + 1);
    return; // a live process is taking it over: the caller looks again
  }
  try {
    if (readRaw(file) === raw) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(claim, { force: true });
  }
}

/** Temporary and claim files left by processes that died mid-way; safe while we hold the lock. */
function sweepLeftovers(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(CLAIM_PREFIX) && !name.startsWith(TEMP_PREFIX)) continue;
    const file = path.join(dir, name);
    const raw = readRaw(file);
    if (raw !== null && isStale(file, raw)) fs.rmSync(file, { force: true });
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Makes the data directory private to this OS user: created 0700, and an existing one (from
 * an older version, or made by hand) narrowed to 0700.
 */
export function secureDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const mode = fs.statSync(dataDir).mode & 0o777;
  if (mode === 0o700) return;
  try {
    fs.chmodSync(dataDir, 0o700);
  } catch (error) {
    console.warn(
      `[data] ${dataDir} のアクセス権を 0700 にできません (cannot chmod): ${(error as Error).message}`,
    );
  }
}

/**
 * What this process creates without naming a mode (directories, the admin socket, PGlite's
 * directories) is its OS user's only. PGlite's files need makePrivate as well.
 */
export function restrictUmask(): void {
  // Worker threads may not change the umask; the main thread's applies to them.
  try {
    process.umask(0o077);
  } catch {
    /* ERR_WORKER_UNSUPPORTED_OPERATION */
  }
}

/**
 * Takes group and other permissions off `target` and everything under it. PGlite needs this:
 * Emscripten chmods each file it creates to the mode the C code asked for (0666 for the
 * initial cluster, 0644 for some files), so the umask does not reach them.
 */
export function makePrivate(target: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(target);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) fs.chmodSync(target, stat.mode & 0o700);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // removed meanwhile
    throw error;
  }
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(target)) makePrivate(path.join(target, name));
  }
}

export type DataDirLock = { release: () => void };

/** The lock `npm start` took for this process's own database (see reserveDataDirLock). */
const reserved = singleton('reserved-data-dir-lock', () => ({
  current: undefined as { dir: string; lock: DataDirLock } | undefined,
}));

export function acquireDataDirLock(dataDir: string): DataDirLock {
  const dir = path.resolve(dataDir);
  const mine = reserved.current;
  if (mine?.dir === dir) {
    reserved.current = undefined;
    return mine.lock;
  }
  secureDataDir(dir);
  const file = path.join(dir, LOCK_FILE);
  const content = ownContent();
  const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
  while (!createExclusive(dir, file, content)) {
    const raw = readRaw(file);
    if (raw !== null) {
      const owner = parseOwner(raw);
      if (owner && ownerIsLive(owner)) throw new DataDirLockedError(dataDir, owner);
      if (isStale(file, raw)) removeStale(dir, file, raw);
    }
    if (Date.now() > deadline) throw new Error(`Could not lock ${dataDir}`);
    sleep(2 + Math.random() * 8); // let the process that is taking it over finish
  }
  sweepLeftovers(dir);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // Ours until we remove it: nobody else removes a live owner's lock.
    if (readRaw(file) === content) fs.rmSync(file, { force: true });
  };
  process.on('exit', release);
  return { release };
}

/**
 * Takes the lock before this process opens the database, and leaves it for the process's
 * own openDatabase to take over (a singleton: the server's bundled modules are other module
 * instances). `npm start` holds it from before its build check, so a second start is
 * refused before it touches `.next`, and two starts never build at once.
 */
export function reserveDataDirLock(dataDir: string): DataDirLock {
  const lock = acquireDataDirLock(dataDir);
  reserved.current = { dir: path.resolve(dataDir), lock };
  return lock;
}
