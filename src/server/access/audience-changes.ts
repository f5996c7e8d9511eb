import 'server-only';
import { singleton } from '@/lib/singleton';
import { AUDIENCE_COOKIE_SECONDS } from './audience';

/**
 * Users whose audience just changed (a plan granted, revoked or paid for, a role changed), so
 * that an audience cookie signed before the change is not trusted for the rest of its minute:
 * a reader who has just subscribed sees the full page at once. Kept per process for a cookie's
 * lifetime; another instance falls back to the cookie's expiry (60 s).
 */

const changes = singleton('audience-changes', () => new Map<string, number>());

export function noteAudienceChange(userId: string, now = Date.now()): void {
  for (const [id, at] of changes) if (now - at > AUDIENCE_COOKIE_SECONDS * 1000) changes.delete(id);
  changes.set(userId, now);
}

/** Whether the user's audience changed at or after `since` (ms). */
export function audienceChangedSince(userId: string, since: number): boolean {
  const at = changes.get(userId);
  return at !== undefined && at >= since;
}
