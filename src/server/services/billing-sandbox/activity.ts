import 'server-only';
import { singleton } from '@/lib/singleton';

/**
 * "The sandbox just changed something": said by whoever calls it (the app's SDK client, the
 * HTTP route, the hosted pages), heard by the background runner, which then delivers the new
 * events at once instead of on its next tick. Kept apart so that neither imports the other.
 */
const listeners = singleton('billing-sandbox-activity', () => new Set<() => void>());

export function noteSandboxActivity(): void {
  for (const listener of listeners) listener();
}

export function onSandboxActivity(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
