import { BOOKMARK_QUERY_MAX, type BookmarkRef } from '@/lib/bookmarks';

/**
 * The bookmark state of the items on the page, shared by every BookmarkButton. Pages are
 * rendered per audience (docs/decisions/007-pages-per-audience.md), so the state is read after
 * hydration: the buttons that mount together are queued and asked about in ONE `GET
 * /api/bookmarks?items=…` (100 items a request). Changes are optimistic and sent one after another
 * per item, so the server sees them in the order they were made; a failure puts back the last saved
 * state.
 */

export type SaveResult = { ok: true } | { ok: false; status: number; message: string | null };

type Entry = {
  /** What the server holds, as far as we know (undefined: not known yet). */
  saved?: boolean;
  /** What the button shows (saved, or the optimistic state while a change is on its way). */
  shown?: boolean;
  pending: number;
  chain: Promise<unknown>;
  /** `changes` when this item was last changed here: a read asked before it is older. */
  changedAt: number;
};

const entries = new Map<string, Entry>();
const listeners = new Map<string, Set<() => void>>();
const queued = new Set<string>();
const inFlight = new Set<string>();
let flushTimer: ReturnType<typeof setTimeout> | null = null;
/** Bumped by a reset, so answers to questions asked before it are dropped. */
let generation = 0;
/** Counts changes made on this page, so a read knows which changes it cannot have seen. */
let changes = 0;
/** The signed-in user the state belongs to (undefined: not known yet). */
let stateUser: string | null | undefined;

function entryFor(key: string): Entry {
  let entry = entries.get(key);
  if (!entry) {
    entry = { pending: 0, chain: Promise.resolve(), changedAt: 0 };
    entries.set(key, entry);
  }
  return entry;
}

function notify(key: string): void {
  for (const listener of listeners.get(key) ?? []) listener();
}

function request(key: string): void {
  if (entries.get(key)?.saved !== undefined || queued.has(key) || inFlight.has(key)) return;
  queued.add(key);
  // A macrotask: every button of the render (and of its effects) is queued by then.
  flushTimer ??= setTimeout(flush, 0);
}

function flush(): void {
  flushTimer = null;
  const keys = [...queued];
  queued.clear();
  for (let i = 0; i < keys.length; i += BOOKMARK_QUERY_MAX)
    void load(keys.slice(i, i + BOOKMARK_QUERY_MAX), generation);
}

async function load(keys: string[], asked: number): Promise<void> {
  const changesBefore = changes;
  for (const key of keys) inFlight.add(key);
  try {
    const response = await fetch(`/api/bookmarks?items=${encodeURIComponent(keys.join(','))}`, {
      cache: 'no-store',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const answer = (await response.json()) as { bookmarked?: unknown };
    if (asked !== generation) return;
    const saved = new Set(Array.isArray(answer.bookmarked) ? answer.bookmarked : []);
    for (const key of keys) {
      const entry = entryFor(key);
      // Changed since the question was asked: the answer may predate the change.
      if (entry.changedAt > changesBefore) continue;
      entry.saved = saved.has(key);
      if (entry.pending === 0) entry.shown = entry.saved;
      notify(key);
    }
  } catch (error) {
    // The buttons stay as rendered (not bookmarked); a click still works.
    console.warn('[bookmarks] could not load the bookmark state:', error);
  } finally {
    if (asked === generation) for (const key of keys) inFlight.delete(key);
  }
}

/** useSyncExternalStore's subscribe; `load: false` when the page already knows the state. */
export function subscribeBookmark(
  key: string,
  listener: () => void,
  { load: shouldLoad = true }: { load?: boolean } = {},
): () => void {
  let set = listeners.get(key);
  if (!set) {
    set = new Set();
    listeners.set(key, set);
  }
  set.add(listener);
  if (shouldLoad) request(key);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(key);
  };
}

export function bookmarkState(key: string): boolean | undefined {
  return entries.get(key)?.shown;
}

async function post(ref: BookmarkRef, bookmarked: boolean): Promise<SaveResult> {
  try {
    const response = await fetch('/api/bookmarks', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ ...ref, action: bookmarked ? 'add' : 'remove' }),
    });
    if (response.ok) return { ok: true };
    let message: string | null = null;
    try {
      const body = (await response.json()) as { message?: unknown };
      if (typeof body.message === 'string' && body.message) message = body.message;
    } catch {
      /* no JSON body */
    }
    return { ok: false, status: response.status, message };
  } catch {
    return { ok: false, status: 0, message: null };
  }
}

/**
 * Shows `bookmarked` at once and saves it. `current` is what the button showed, the state to
 * go back to when the server refuses and nothing was known before.
 */
export async function saveBookmark(
  key: string,
  ref: BookmarkRef,
  bookmarked: boolean,
  current: boolean,
): Promise<SaveResult> {
  const entry = entryFor(key);
  if (entry.pending === 0) entry.saved ??= current;
  entry.pending++;
  entry.changedAt = ++changes;
  entry.shown = bookmarked;
  notify(key);
  const run = entry.chain.then(() => post(ref, bookmarked));
  entry.chain = run;
  const result = await run;
  entry.pending--;
  if (result.ok) entry.saved = bookmarked;
  // Only the last change of a quick series decides what stays on screen.
  if (entry.pending === 0) entry.shown = entry.saved;
  notify(key);
  return result;
}

/** Forgets every known state and asks again for the buttons on the page. */
export function resetBookmarks(): void {
  generation++;
  queued.clear();
  inFlight.clear();
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  for (const [key, entry] of entries) if (entry.pending === 0) entries.delete(key);
  for (const key of listeners.keys()) {
    request(key);
    notify(key);
  }
}

/**
 * The auth state said who is signed in: when that changes (a sign-in or sign-out in another
 * tab), the states shown belong to someone else and are read again.
 */
export function syncBookmarkUser(userId: string | null): void {
  if (stateUser === undefined) {
    stateUser = userId;
    return;
  }
  if (stateUser === userId) return;
  stateUser = userId;
  resetBookmarks();
}

/** Tests: a fresh store. */
export function resetBookmarkStoreForTests(): void {
  generation++;
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  entries.clear();
  listeners.clear();
  queued.clear();
  inFlight.clear();
  stateUser = undefined;
}
