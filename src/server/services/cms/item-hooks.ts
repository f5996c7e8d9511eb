import 'server-only';
import { singleton } from '@/lib/singleton';
import type { Db } from '@/server/platform/db/client';

/**
 * What the rest of the site does inside the content store's own transaction when an item's
 * publication changes, so that both commit together or neither does. The content service
 * knows nothing of its subscribers: a feature subscribes once per process when the server
 * starts (src/server/boot.ts), and the store calls whoever did. Only what must not be lost
 * between a commit and a listener belongs here (the newsletter queued "with the publication",
 * docs/decisions/026-newsletter-queue.md); caches, which may be a moment late, listen to the
 * events of events.ts after the commit instead (docs/decisions/045-server-tiers.md).
 */

export type ItemRef = { endpoint: string; id: string };

export type ItemHooks = {
  /** Published (the first time, or again): inside the publishing transaction. */
  published?: (tx: Db, item: ItemRef, at: Date) => Promise<unknown>;
  /** Its publication called off: unpublished, or its scheduled publication cleared. */
  withdrawn?: (tx: Db, item: ItemRef, at: Date) => Promise<unknown>;
};

const subscribers = singleton('content-item-hooks', () => new Set<ItemHooks>());

/** Subscribes to every item's publication changes; the function returned unsubscribes. */
export function onItemPublication(hooks: ItemHooks): () => void {
  subscribers.add(hooks);
  return () => subscribers.delete(hooks);
}

/** Runs the subscribers of `kind`, one after the other, in the caller's transaction. */
export async function runItemHooks(
  kind: keyof ItemHooks,
  tx: Db,
  item: ItemRef,
  at: Date,
): Promise<void> {
  for (const hooks of subscribers) await hooks[kind]?.(tx, item, at);
}
