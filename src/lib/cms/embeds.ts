/**
 * Embeds in rich text: which URLs are one, and the one spelling each is stored in.
 *
 * - YouTube and Vimeo players are stored as `<iframe src="https://www.youtube.com/embed/ID">` /
 *   `<iframe src="https://player.vimeo.com/video/ID">`, the markup every CMS writes.
 * - X and Instagram posts are stored as `<figure><a href="POST">POST</a></figure>`: only
 *   allowed elements, and a figure holding nothing but one link whose URL is exactly the
 *   canonical post URL (`https://x.com/USER/status/ID`, `https://www.instagram.com/p/CODE/`).
 *   Anything else is an ordinary figure and link.
 *
 * Every URL is judged with the WHATWG URL parser, the one the browser uses, so look-alike
 * hosts, user info, ports, encoded dot segments and other schemes never pass.
 *
 * No `server-only` here: the console's editor (a client component) recognises the same URLs
 * as the sanitiser and the site's renderer, from this one module.
 */

export type EmbedProvider = 'youtube' | 'vimeo' | 'x' | 'instagram';
export type PlayerProvider = Extract<EmbedProvider, 'youtube' | 'vimeo'>;

export type Embed = {
  provider: EmbedProvider;
  /** What is stored: the player's `src` (YouTube, Vimeo) or the post's canonical URL. */
  url: string;
};

export const EMBED_PROVIDER_LABELS: Readonly<Record<EmbedProvider, string>> = {
  youtube: 'YouTube',
  vimeo: 'Vimeo',
  x: 'X（旧Twitter）',
  instagram: 'Instagram',
};

export function isPlayerProvider(provider: EmbedProvider): provider is PlayerProvider {
  return provider === 'youtube' || provider === 'vimeo';
}

// Only video players are embedded; a path prefix, not just the host, keeps out the rest of
// those sites (a YouTube page in an iframe is a clickjacking surface, an embed is not).
export const PLAYER_PATH_BY_HOST: ReadonlyMap<string, string> = new Map([
  ['www.youtube.com', '/embed/'],
  ['player.vimeo.com', '/video/'],
]);

/**
 * Where a YouTube video's still is (public, no API key): the newsletter shows it in place of the
 * player a mail cannot play (src/server/features/newsletter/letter-body.ts), and the console's
 * policy lets its preview load it (src/lib/security-headers.ts).
 */
export const YOUTUBE_THUMBNAIL_ORIGIN = 'https://i.ytimg.com';

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^[0-9]{1,12}$/;
// Eleven characters like an ID, but the playlist player: never a watch page.
const YOUTUBE_PLAYLIST = 'videoseries';

function isYoutubeId(id: string): boolean {
  return YOUTUBE_ID.test(id) && id !== YOUTUBE_PLAYLIST;
}
const VIMEO_HASH = /^[0-9a-f]{6,32}$/;
const X_POST =
  /^\/([A-Za-z0-9_]{1,15})\/status(?:es)?\/([0-9]{1,20})(?:\/(?:photo|video)\/[1-4])?\/?$/;
const X_CANONICAL = /^https:\/\/x\.com\/[A-Za-z0-9_]{1,15}\/status\/[0-9]{1,20}$/;
const INSTAGRAM_POST = /^\/(?:[A-Za-z0-9_.]{1,30}\/)?(p|reels?|tv)\/([A-Za-z0-9_-]{5,64})\/?$/;
const INSTAGRAM_CANONICAL = /^https:\/\/www\.instagram\.com\/(p|reel|tv)\/[A-Za-z0-9_-]{5,64}\/$/;

const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com']);
const YOUTUBE_NOCOOKIE_HOSTS = new Set(['youtube-nocookie.com', 'www.youtube-nocookie.com']);
const VIMEO_HOSTS = new Set(['vimeo.com', 'www.vimeo.com']);
const X_HOSTS = new Set([
  'x.com',
  'www.x.com',
  'mobile.x.com',
  'twitter.com',
  'www.twitter.com',
  'mobile.twitter.com',
]);
const INSTAGRAM_HOSTS = new Set(['instagram.com', 'www.instagram.com']);

/** An absolute https URL with no user info or port, or null. */
function httpsUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.port) return null;
  return url;
}

/**
 * The `src` of a player the sanitiser keeps: https, an allowed host and its path prefix
 * followed by something. The parsed form is returned, so what was checked is exactly what
 * the browser loads (encoded dot segments are already resolved by the parser).
 */
export function playerSrc(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return null;
  const prefix = PLAYER_PATH_BY_HOST.get(url.hostname);
  if (prefix === undefined || !url.pathname.startsWith(prefix) || url.pathname === prefix) {
    return null;
  }
  return url.href;
}

/** A stored player `src` as an embed, or null when it is not one. */
export function playerEmbed(src: string): (Embed & { provider: PlayerProvider }) | null {
  const url = playerSrc(src);
  if (!url) return null;
  return { provider: url.startsWith('https://www.youtube.com/') ? 'youtube' : 'vimeo', url };
}

/** A stored post link as an embed: only the exact canonical spelling counts. */
export function postEmbed(href: string): Embed | null {
  if (X_CANONICAL.test(href)) return { provider: 'x', url: href };
  if (INSTAGRAM_CANONICAL.test(href)) return { provider: 'instagram', url: href };
  return null;
}

/** Seconds from YouTube's `t`/`start` forms: 90, 90s, 1m30s, 1h2m3s. */
function youtubeStart(url: URL): number | null {
  const raw = url.searchParams.get('t') ?? url.searchParams.get('start');
  if (!raw) return null;
  const match = /^(?:(\d{1,2})h)?(?:(\d{1,3})m)?(?:(\d{1,6})s?)?$/.exec(raw);
  if (!match) return null;
  const [, h = '0', m = '0', s = '0'] = match;
  const seconds = Number(h) * 3600 + Number(m) * 60 + Number(s);
  return seconds > 0 ? seconds : null;
}

function youtubeEmbed(id: string, url: URL): Embed | null {
  if (!isYoutubeId(id)) return null;
  const start = youtubeStart(url);
  return {
    provider: 'youtube',
    url: `https://www.youtube.com/embed/${id}${start ? `?start=${start}` : ''}`,
  };
}

function vimeoEmbed(id: string, hash: string | null): Embed | null {
  if (!VIMEO_ID.test(id)) return null;
  const h = hash && VIMEO_HASH.test(hash) ? `?h=${hash}` : '';
  return { provider: 'vimeo', url: `https://player.vimeo.com/video/${id}${h}` };
}

/**
 * What an editor pastes or types (a watch page, a share link, an embed URL, a post URL) as
 * the embed to store, or null when it is none of the four providers.
 */
export function embedFromUrl(input: string): Embed | null {
  const url = httpsUrl(input);
  if (!url) return null;
  const host = url.hostname;
  const segments = url.pathname.split('/').filter(Boolean);

  if (YOUTUBE_HOSTS.has(host)) {
    if (url.pathname === '/watch') return youtubeEmbed(url.searchParams.get('v') ?? '', url);
    const [kind, id] = segments;
    if (segments.length === 2 && id && ['embed', 'shorts', 'live', 'v'].includes(kind ?? '')) {
      return youtubeEmbed(id, url);
    }
    return null;
  }
  if (YOUTUBE_NOCOOKIE_HOSTS.has(host)) {
    const [kind, id] = segments;
    return segments.length === 2 && kind === 'embed' && id ? youtubeEmbed(id, url) : null;
  }
  if (host === 'youtu.be') {
    const [id] = segments;
    return segments.length === 1 && id ? youtubeEmbed(id, url) : null;
  }
  if (host === 'player.vimeo.com') {
    const [kind, id] = segments;
    return segments.length === 2 && kind === 'video' && id
      ? vimeoEmbed(id, url.searchParams.get('h'))
      : null;
  }
  if (VIMEO_HOSTS.has(host)) {
    // vimeo.com/ID, vimeo.com/ID/HASH (unlisted), vimeo.com/channels/NAME/ID
    const [first, second, third] = segments;
    if (first && VIMEO_ID.test(first) && segments.length <= 2)
      return vimeoEmbed(first, second ?? null);
    if (first === 'channels' && third && segments.length === 3) return vimeoEmbed(third, null);
    return null;
  }
  if (X_HOSTS.has(host)) {
    const match = X_POST.exec(url.pathname);
    return match ? { provider: 'x', url: `https://x.com/${match[1]}/status/${match[2]}` } : null;
  }
  if (INSTAGRAM_HOSTS.has(host)) {
    const match = INSTAGRAM_POST.exec(url.pathname);
    if (!match) return null;
    const kind = match[1] === 'reels' ? 'reel' : match[1];
    return { provider: 'instagram', url: `https://www.instagram.com/${kind}/${match[2]}/` };
  }
  return null;
}

/**
 * The provider's own page for an embed: where a reader without JavaScript goes, and what the
 * console shows. For a player whose ID is not in the usual form, the player URL itself.
 */
export function embedPageUrl(embed: Embed): string {
  if (!isPlayerProvider(embed.provider)) return embed.url;
  const url = new URL(embed.url);
  const [, id] = url.pathname.split('/').filter(Boolean);
  if (embed.provider === 'youtube' && id && isYoutubeId(id)) {
    const start = url.searchParams.get('start');
    return `https://www.youtube.com/watch?v=${id}${start && /^\d+$/.test(start) ? `&t=${start}s` : ''}`;
  }
  if (embed.provider === 'vimeo' && id && VIMEO_ID.test(id)) {
    const hash = url.searchParams.get('h');
    return `https://vimeo.com/${id}${hash && VIMEO_HASH.test(hash) ? `/${hash}` : ''}`;
  }
  return embed.url;
}
