import 'server-only';
import { singleton } from '@/lib/singleton';
import { broadcast, onBroadcast } from '@/server/platform/cluster/bus';
import { AUDIENCE_COOKIE_SECONDS } from './audience';

/**
 * Users whose audience just changed (a plan granted, revoked or paid for, a role changed), so
 * that an audience cookie signed before the change is not trusted for the rest of its minute:
 * a reader who has just subscribed sees the full page at once. Kept per process for a cookie's
 * lifetime and told to the other instances through the cluster bus, which note it at the time
 * they hear it (their own clock: a little late is safe, it only distrusts a few more cookies).
 */

const changes = singleton('audience-changes', () => {
  const map = new Map<string, number>();
  onBroadcast('audience', ({ userId }) => record(map, userId, Date.now()));
  return map;
});

function record(map: Map<string, number>, userId: string, now: number): void {
  for (const [id, at] of map) if (now - at > AUDIENCE_COOKIE_SECONDS * 1000) map.delete(id);
  map.set(userId, now);
}

export function noteAudienceChange(userId: string, now = Date.now()): void {
  record(changes, userId, now);
  broadcast('audience', { userId });
}

/** Whether the user's audience changed at or after `since` (ms). */
export function audienceChangedSince(userId: string, since: number): boolean {
  const at = changes.get(userId);
  return at !== undefined && at >= since;
}
