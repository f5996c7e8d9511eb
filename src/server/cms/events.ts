import 'server-only';
import { singleton } from '@/lib/singleton';
import { broadcast, onBroadcast, onBusGap } from '@/server/cluster/bus';

/**
 * Content changes, for whatever caches content (the content API's answers, the store's read
 * cache, the front server's pages). A change made here is told to this process's listeners at
 * once and to the other instances through the cluster bus, whose messages reach the listeners
 * of those instances in the same way.
 */
export type ContentChange = { endpoint: string; id: string };
type Listener = (change: ContentChange) => void;

/** After a gap in the bus: anything may have changed. */
export const ANY_CONTENT: ContentChange = { endpoint: '*', id: '*' };

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
