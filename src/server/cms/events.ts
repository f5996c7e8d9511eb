import 'server-only';
import { singleton } from '@/lib/singleton';

/** Content changes, for whatever caches content (the content client's read cache). */
export type ContentChange = { endpoint: string; id: string };
type Listener = (change: ContentChange) => void;

const listeners = singleton('content-listeners', () => new Set<Listener>());

export function onContentChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitContentChange(change: ContentChange): void {
  for (const listener of listeners) {
    try {
      listener(change);
    } catch (error) {
      console.error('[cms] content-change listener failed:', error);
    }
  }
}
