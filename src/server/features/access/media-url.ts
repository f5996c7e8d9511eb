import 'server-only';
import { protectedMediaKey, signMediaUrl } from '@/server/platform/security/signing';

/** How long a signed player URL lasts: long enough for a long episode, short enough to not share. */
export const PLAYER_URL_SECONDS = 3 * 60 * 60;

/**
 * The URL a player may use for a file the viewer is allowed to play: a protected file gets a
 * signed, expiring URL; anything else (a public upload, a hosted CMS's CDN) is used as is.
 * Call it only after the access policy said yes.
 */
export function playableUrl(url: string): string {
  return protectedMediaKey(url) ? signMediaUrl(url, { expiresInSeconds: PLAYER_URL_SECONDS }) : url;
}
