import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { createContent } from '@/server/services/cms/writes';
import { createSiteContent } from '@/server/features/content/site-content';
import { runAdminCommand } from '@/server/features/admin/commands';
import { getStorage } from '@/server/platform/storage/storage';
import { podcastFeeds, subscriptions } from '@/server/platform/db/schema';
import { sample } from '@test-support/media-samples';
import {
  addUser,
  appUser,
  auditsOf,
  doneFlash,
  formPost,
  testDataDir,
  testDatabase,
  testViewer,
} from '@test-support/route-tests';
import {
  type PodcastDeps,
  feedTokenFor,
  podcastFeedPost,
  episodeFileAnswer,
  privateEpisodeResponse,
  privateFeedResponse,
  publicEpisodeResponse,
  publicFeedResponse,
} from './index';

/**
 * The podcast feeds against a real database, the built-in content service and the stored
 * files: the attacks first (a guessed, revoked or altered token, a plan that ended, a proxy
 * keeping a feed), then what a podcast app needs (Range, HEAD, the itunes tags).
 */

testDataDir('podcast');
const database = testDatabase();
const SITE = 'https://axis.example.jp';
const MEMBERS_FILE = 'protected/2026/11/0123456789abcdef0123456789abcdef.mp3';
const PUBLIC_FILE = 'protected/2026/11/fedcba9876543210fedcba9876543210.mp3';
const mp3 = sample('mp3');

const users = {
  paid: appUser('podcast-paid', 'member'),
  free: appUser('podcast-free', 'member'),
  ending: appUser('podcast-ending', 'member'),
};
let deps: PodcastDeps;

beforeAll(async () => {
  const { db } = database;
  const site = createSiteContent({ db });
  deps = {
    content: () => site.client,
    site: { siteUrl: SITE, siteName: 'AXIS', ownerEmail: 'podcast@axis.example.jp' },
  };
  const audios = findEndpoint('audios')!;
  const episode = (id: string, title: string, file: string, open: boolean, day: number) =>
    createContent(db, audios, {
      id,
      status: 'publish',
      body: {
        title,
        description: `${title}の説明`,
        audioFile: { url: `/media/${file}`, fileSize: mp3.length },
        duration: 1834,
        isPublicPreview: open,
        publishedAt: `2026-11-${day}T00:00:00.000Z`,
      },
    });
  await episode('members-ep', '会員限定の回', MEMBERS_FILE, false, 20);
  await episode('free-ep', '無料公開の回', PUBLIC_FILE, true, 10);
  // A file on a hosted CMS's CDN (not in this site's storage) is linked where it is.
  await createContent(db, audios, {
    id: 'cdn-ep',
    status: 'publish',
    body: {
      title: 'CDN の回',
      audioFile: { url: 'https://cdn.example.jp/audio/cdn-ep.m4a', fileSize: 4321 },
      isPublicPreview: true,
      publishedAt: '2026-11-05T00:00:00.000Z',
    },
  });
  await getStorage().put(MEMBERS_FILE, mp3, 'audio/mpeg');
  await getStorage().put(PUBLIC_FILE, mp3, 'audio/mpeg');
  for (const who of Object.values(users)) await addUser(database, who);
  for (const who of [users.paid, users.ending])
    await db.insert(subscriptions).values({
      id: `sub_${who.id}`,
      userId: who.id,
      provider: 'stripe',
      status: 'active',
      cancelAtPeriodEnd: false,
      planName: 'スタンダード',
    });
});

const feedOf = (token: string) => privateFeedResponse(token, deps);
const fileOf = (
  token: string,
  file: string,
  headers: Record<string, string> = {},
  method = 'GET',
) =>
  privateEpisodeResponse(
    new Request(`${SITE}/podcast/${token}/episodes/${file}`, { method, headers }),
    token,
    file,
    deps,
  );
const tokenOf = (who: keyof typeof users) => feedTokenFor(database.db, users[who].id);

describe('attacks on the private feed', () => {
  it('a guessed token gets 403 for the feed and the file, and no episode', async () => {
    const guess = 'A'.repeat(32);
    const feed = await feedOf(guess);
    expect(feed.status).toBe(403);
    expect(feed.headers.get('cache-control')).toBe('private, no-store');
    expect(await feed.text()).not.toContain('会員限定の回');
    expect((await fileOf(guess, 'members-ep.mp3')).status).toBe(403);
  });

  it('a token in another case, with padding, %-encoded or cut short opens nothing', async () => {
    const token = await tokenOf('paid');
    expect((await feedOf(token)).status).toBe(200);
    const altered = [
      token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
      `${token}=`,
      `${token}==`,
      encodeURIComponent(`${token}/`),
      `%${token}`,
      token.slice(0, 31),
      ` ${token}`,
    ];
    for (const other of altered) {
      expect((await feedOf(other)).status, other).toBe(403);
      expect((await fileOf(other, 'members-ep.mp3')).status, other).toBe(403);
    }
  });

  it('the token is long, random and stored only hashed', async () => {
    const token = await tokenOf('paid');
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/); // 192 bits
    expect(await tokenOf('paid')).toBe(token); // the same address on every visit
    const rows = await database.db
      .select()
      .from(podcastFeeds)
      .where(eq(podcastFeeds.userId, users.paid.id));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(await tokenOf('free')).not.toBe(token);
  });

  it('「URLを再発行」 revokes the old address at once (feed and file 403), audited', async () => {
    const old = await tokenOf('paid');
    const post = podcastFeedPost({ viewer: testViewer(users) });
    const answer = await post(
      formPost('/api/account/podcast-feed', { who: 'paid', plain: true, referer: '/account' }),
    );
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toMatch(/\/account#podcast$/);
    expect(doneFlash(answer)).toContain('再発行しました');
    expect((await feedOf(old)).status).toBe(403);
    expect((await fileOf(old, 'members-ep.mp3')).status).toBe(403);
    const fresh = await tokenOf('paid');
    expect(fresh).not.toBe(old);
    expect((await feedOf(fresh)).status).toBe(200);
    expect(await auditsOf(database, 'podcast-feed-reissued', `user:${users.paid.id}`)).toHaveLength(
      1,
    );
  });

  it('nobody signed in cannot reissue a feed', async () => {
    const post = podcastFeedPost({ viewer: testViewer(users) });
    const answer = await post(formPost('/api/account/podcast-feed', { who: null }));
    expect(answer.status).toBe(401);
  });

  it('staff revoke a leaked address with the admin CLI: 403 at once, audited', async () => {
    const token = await tokenOf('free');
    const lines = await runAdminCommand({ database, actor: 'cli:test' }, 'feed-revoke', {
      email: users.free.email,
    });
    expect(lines.join('\n')).toContain('無効にしました');
    expect((await feedOf(token)).status).toBe(403);
    expect(await auditsOf(database, 'podcast-feed-revoked', `user:${users.free.id}`)).toHaveLength(
      1,
    );
    // Again: nothing live to revoke, nothing changed.
    const again = await runAdminCommand({ database, actor: 'cli:test' }, 'feed-revoke', {
      email: users.free.email,
    });
    expect(again.join('\n')).toContain('ありません');
  });

  it('when the plan ends, the members’ episodes leave the feed and their files answer 403', async () => {
    const token = await tokenOf('ending');
    expect(await (await feedOf(token)).text()).toContain('会員限定の回');
    expect((await fileOf(token, 'members-ep.mp3', { range: 'bytes=0-9' })).status).toBe(206);

    await database.db
      .update(subscriptions)
      .set({ status: 'canceled' })
      .where(eq(subscriptions.userId, users.ending.id));

    const feed = await feedOf(token);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('cache-control')).toBe('private, no-store');
    const xml = await feed.text();
    expect(xml).not.toContain('会員限定の回');
    expect(xml).not.toContain('members-ep');
    expect(xml).toContain('無料公開の回');
    const file = await fileOf(token, 'members-ep.mp3', { range: 'bytes=0-9' });
    expect(file.status).toBe(403);
    expect(file.headers.get('cache-control')).toBe('private, no-store');
    expect((await fileOf(token, 'members-ep.mp3', {}, 'HEAD')).status).toBe(403);
  });

  it('a free member’s feed has the free episodes only', async () => {
    const xml = await (await feedOf(await tokenOf('free'))).text();
    expect(xml).toContain('無料公開の回');
    expect(xml).not.toContain('会員限定の回');
    expect(xml).not.toContain(MEMBERS_FILE);
  });

  it('only the name the feed gives a file is served', async () => {
    const token = await tokenOf('paid');
    for (const name of ['members-ep.wav', 'members-ep', '../members-ep.mp3', 'nope.mp3'])
      expect((await fileOf(token, name)).status, name).toBe(404);
  });
});

describe('the public feed', () => {
  it('never lists a members’ episode or its file, and may be cached', async () => {
    const feed = await publicFeedResponse(deps);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    const xml = await feed.text();
    expect(xml).toContain('無料公開の回');
    expect(xml).not.toContain('会員限定の回');
    expect(xml).not.toContain('members-ep');
    expect(xml).not.toContain('<itunes:block>');
    expect(xml).toContain(
      `<enclosure url="${SITE}/podcast/episodes/free-ep.mp3" length="${mp3.length}" type="audio/mpeg"/>`,
    );
    expect(xml).toContain(
      '<enclosure url="https://cdn.example.jp/audio/cdn-ep.m4a" length="4321" type="audio/mp4"/>',
    );
  });

  it('serves a public episode’s file to anyone, and no members’ one', async () => {
    const open = await publicEpisodeResponse(
      new Request(`${SITE}/podcast/episodes/free-ep.mp3`, { headers: { range: 'bytes=2-5' } }),
      'free-ep.mp3',
      deps,
    );
    expect(open.status).toBe(206);
    expect(open.headers.get('cache-control')).toMatch(/^public/);
    const closed = await publicEpisodeResponse(
      new Request(`${SITE}/podcast/episodes/members-ep.mp3`),
      'members-ep.mp3',
      deps,
    );
    expect(closed.status).toBe(403);
  });
});

describe('what a podcast app gets from a paid member’s feed', () => {
  it('is RSS 2.0 with the itunes namespace: channel and episode tags Apple asks for', async () => {
    const token = await tokenOf('paid');
    const feed = await feedOf(token);
    expect(feed.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(feed.headers.get('cache-control')).toBe('private, no-store');
    const xml = await feed.text();
    expect(xml).toContain('xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"');
    for (const tag of [
      '<language>ja</language>',
      `<itunes:image href="${SITE}/podcast-artwork.png"/>`,
      '<itunes:category text="Arts"><itunes:category text="Design"/></itunes:category>',
      '<itunes:explicit>false</itunes:explicit>',
      '<itunes:owner><itunes:name>AXIS</itunes:name><itunes:email>podcast@axis.example.jp</itunes:email></itunes:owner>',
      '<itunes:block>Yes</itunes:block>',
      `<atom:link href="${SITE}/podcast/${token}/feed.xml" rel="self" type="application/rss+xml"/>`,
    ])
      expect(xml).toContain(tag);
    // Newest first; each with its guid, date, enclosure and duration.
    expect(xml.indexOf('会員限定の回')).toBeLessThan(xml.indexOf('無料公開の回'));
    expect(xml).toContain(`<guid isPermaLink="true">${SITE}/audios/members-ep</guid>`);
    expect(xml).toContain('<pubDate>Fri, 20 Nov 2026 00:00:00 GMT</pubDate>');
    expect(xml).toContain(
      `<enclosure url="${SITE}/podcast/${token}/episodes/members-ep.mp3" length="${mp3.length}" type="audio/mpeg"/>`,
    );
    expect(xml).toContain('<itunes:duration>1834</itunes:duration>');
    expect(xml).toContain('<description>会員限定の回の説明</description>');
  });

  it('answers Range with 206, a range past the end with 416, and HEAD with the length', async () => {
    const token = await tokenOf('paid');
    const part = await fileOf(token, 'members-ep.mp3', { range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${mp3.length}`);
    expect(part.headers.get('cache-control')).toBe('private, no-store');
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(mp3.subarray(10, 20));
    const past = await fileOf(token, 'members-ep.mp3', { range: `bytes=${mp3.length}-` });
    expect(past.status).toBe(416);
    const head = await fileOf(token, 'members-ep.mp3', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(mp3.length));
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect(await head.text()).toBe('');
  });

  it('is answered by the front server for the file paths only, with the token the path names', async () => {
    const token = await tokenOf('paid');
    const get = (path: string) =>
      episodeFileAnswer(path, deps)?.(new Request(`${SITE}${path}`, { method: 'HEAD' }));
    expect((await get(`/podcast/${token}/episodes/members-ep.mp3`))?.status).toBe(200);
    expect((await get(`/podcast/${'A'.repeat(32)}/episodes/members-ep.mp3`))?.status).toBe(403);
    expect((await get('/podcast/episodes/members-ep.mp3'))?.status).toBe(403);
    expect((await get('/podcast/episodes/free-ep.mp3'))?.headers.get('content-length')).toBe(
      String(mp3.length),
    );
    // Anything else is the route handlers' (which refuse or render it).
    for (const other of [
      '/podcast/feed.xml',
      `/podcast/${token}/feed.xml`,
      `/podcast/${token}%41/episodes/members-ep.mp3`,
      `/podcast/${token.slice(1)}/episodes/members-ep.mp3`,
      '/podcast/episodes/members-ep.mp3/x',
      '/podcast/episodes/..%2Fmembers-ep.mp3',
      '/media/protected/x.mp3',
    ])
      expect(episodeFileAnswer(other, deps)).toBeNull();
  });
});
