import 'server-only';
import { singleton } from '@/lib/singleton';
import { broadcast, onBroadcast, onBusGap } from '@/server/platform/cluster/bus';

/**
 * Content changes, for whatever caches content (the content API's answers, the store's counts,
 * the front server's pages). A change made here is told to this process's listeners at once and
 * to the other instances through the cluster bus, whose messages reach the listeners of those
 * instances in the same way. Each cache purges only what read the change
 * (src/server/services/cms/reads.ts; docs/decisions/044-purge-what-a-change-showed.md).
 */
export const ANY_FIELD = '*';

export type ContentChange = {
  /** `*`: any endpoint. */
  endpoint: string;
  /** `*`: any item of the endpoint. */
  id: string;
  /** The published fields that changed (system dates included); absent: any. */
  fields?: string[] | typeof ANY_FIELD;
  /** An item came or went (published, unpublished, deleted, renamed); absent: true. */
  membership?: boolean;
  /** What a reader may be shown narrowed: nothing stale may be served; absent: true. */
  narrows?: boolean;
};
type Listener = (change: ContentChange) => void;

/** After a gap in the bus: anything may have changed. */
export const ANY_CONTENT: ContentChange = { endpoint: '*', id: '*' };

/** Items' search text (readings) brought up to date: only searches answer differently. */
export const SEARCH_TEXT_CHANGED: ContentChange = {
  endpoint: '*',
  id: '*',
  fields: ['(search)'],
  membership: false,
  narrows: false,
};

export const changedFields = (change: ContentChange): readonly string[] | typeof ANY_FIELD =>
  change.fields ?? ANY_FIELD;
export const changeNarrows = (change: ContentChange): boolean => change.narrows !== false;

function tell(listeners: Set<Listener>, change: ContentChange): void {
  for (const listener of listeners) {
    try {
      listener(change);
    } catch (error) {
      console.error('[cms] content-change listener failed:', error);
    }
  }
}

// Created once per process, with its wiring to the other instances.
const listeners = singleton('content-listeners', () => {
  const set = new Set<Listener>();
  onBroadcast('content', (change) => tell(set, change));
  onBusGap(() => tell(set, ANY_CONTENT));
  return set;
});

export function onContentChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitContentChange(change: ContentChange): void {
  tell(listeners, change);
  broadcast('content', change);
}

/**
 * The changes of the last moments, numbered: a read or render that started before a change and
 * ends after it must not be kept when the change affects what it read. `since` is `seq` as it
 * was when the read started.
 */
class RecentChanges {
  seq = 0;
  private readonly recent: { seq: number; change: ContentChange }[] = [];
  private static readonly KEEP = 512;

  record(change: ContentChange): void {
    this.recent.push({ seq: ++this.seq, change });
    if (this.recent.length > RecentChanges.KEEP) this.recent.shift();
  }

  /** Whether a change since `since` matches; true when the log no longer reaches back so far. */
  since(since: number, matches: (change: ContentChange) => boolean): boolean {
    if (since === this.seq) return false;
    const first = this.recent[0];
    if (!first || first.seq > since + 1) return true;
    return this.recent.some((entry) => entry.seq > since && matches(entry.change));
  }
}

export const recentChanges = singleton('content-recent-changes', () => {
  const log = new RecentChanges();
  onContentChange((change) => log.record(change));
  return log;
});
