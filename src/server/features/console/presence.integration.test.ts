import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { OBJECT_ITEM, type SaveAnswer } from '@/lib/admin-content';
import { type PresenceAnswer, presenceAnswerSchema } from '@/lib/cms/presence';
import { cmsPresence, cmsSubmissions } from '@/server/platform/db/schema';
import type { AppUser } from '@/server/features/identity/session-user';
import { jsonPost } from '@test-support/json-post';
import {
  SITE,
  TEST_VIEWER_HEADER,
  addUser,
  appUser,
  expectBare404,
  testDataDir,
  testDatabase,
  testViewer,
} from '@test-support/route-tests';
import { consoleRoutes } from './console-http';
import { editorsByItem } from './presence';

/**
 * Editing presence through its route on a real database, on a clock the test moves (no
 * waiting): two editors see each other, an entry not renewed for 45 s is gone, leaving is
 * seen at once, and a contributor sees and is seen only on their own items.
 */

testDataDir('console-presence');

type Who = 'sato' | 'suzuki' | 'writer' | 'otherWriter' | 'member';
const users: Record<Who, AppUser> = {
  sato: appUser('p-sato', 'editor', '佐藤'),
  suzuki: appUser('p-suzuki', 'admin', '鈴木'),
  writer: appUser('p-writer', 'contributor', '寄稿 太郎'),
  otherWriter: appUser('p-other', 'contributor', '寄稿 次郎'),
  member: appUser('p-member', 'member', '会員'),
};
const database = testDatabase();
let clock = new Date('2026-11-27T06:00:00.000Z');
const later = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const routes = consoleRoutes({ viewer: testViewer(users), now: () => clock });

beforeAll(async () => {
  for (const who of Object.values(users)) await addUser(database, who);
});

const url = (endpoint: string, id: string) => `${SITE}/api/admin/content/${endpoint}/${id}`;

function presence(who: Who | null, id: string, body: unknown = {}, endpoint = 'posts') {
  const headers: Record<string, string> = who ? { [TEST_VIEWER_HEADER]: who } : {};
  return routes.presence(jsonPost(`${url(endpoint, id)}/presence`, body, headers), endpoint, id);
}

async function beat(who: Who, id: string, body: unknown = {}): Promise<PresenceAnswer> {
  const response = await presence(who, id, body);
  expect(response.status).toBe(200);
  return presenceAnswerSchema.parse(await response.json());
}

const names = (answer: PresenceAnswer) => answer.editors.map((e) => e.name);

async function created(who: Who, title: string): Promise<SaveAnswer> {
  const response = await routes.create(
    jsonPost(
      `${SITE}/api/admin/content/posts`,
      { fields: { title } },
      { [TEST_VIEWER_HEADER]: who },
    ),
    'posts',
  );
  expect(response.status).toBe(201);
  return (await response.json()) as SaveAnswer;
}

const rowsOf = (id: string) =>
  database.db.select().from(cmsPresence).where(eq(cmsPresence.contentId, id));

describe('two editors on one item', () => {
  it('see each other with since when, and the item list marks it', async () => {
    const post = await created('sato', '編集中の記事');
    expect(names(await beat('sato', post.id))).toEqual([]);
    // Three minutes of Sato's heartbeats, each just within the last one's 45 s.
    for (let i = 0; i < 4; i++) {
      later(45_000);
      await beat('sato', post.id);
    }
    const seenBySuzuki = await beat('suzuki', post.id);
    expect(seenBySuzuki.editors).toEqual([{ name: '佐藤', since: '2026-11-27T06:00:00.000Z' }]);
    expect(seenBySuzuki.at).toBe(clock.toISOString());
    // Sato's heartbeat keeps the time he opened it, and shows Suzuki.
    expect(names(await beat('sato', post.id))).toEqual(['鈴木']);
    expect((await rowsOf(post.id)).find((r) => r.userId === 'p-sato')?.startedAt).toEqual(
      new Date('2026-11-27T06:00:00.000Z'),
    );

    const marked = await editorsByItem(database.db, 'posts', [post.id], 'p-member', clock);
    expect(marked.get(post.id)?.map((e) => e.name)).toEqual(['佐藤', '鈴木']);
  });

  it('forget an editor 45 s after the last heartbeat, and at once when they leave', async () => {
    const post = await created('sato', '閉じられる記事');
    await beat('sato', post.id);
    later(15_000);
    expect(names(await beat('suzuki', post.id))).toEqual(['佐藤']);
    later(30_000); // Sato's last heartbeat is exactly 45 s old: still there.
    expect(names(await beat('suzuki', post.id))).toEqual(['佐藤']);
    later(1);
    expect(names(await beat('suzuki', post.id))).toEqual([]);
    // The expired row is gone from the table, not only from the answer.
    expect((await rowsOf(post.id)).map((r) => r.userId)).toEqual(['p-suzuki']);

    await beat('sato', post.id);
    expect(names(await beat('suzuki', post.id))).toEqual(['佐藤']);
    await beat('sato', post.id, { leaving: true });
    expect(names(await beat('suzuki', post.id))).toEqual([]);
  });

  it("tell an editor someone else saved meanwhile, and not about one's own save", async () => {
    const post = await created('sato', '保存される記事');
    expect((await beat('sato', post.id)).saved).toMatchObject({ by: '佐藤', mine: true });
    later(60_000);
    const saved = await routes.save(
      new Request(url('posts', post.id), {
        method: 'PUT',
        headers: {
          host: 'localhost:3000',
          origin: SITE,
          accept: 'application/json',
          'content-type': 'application/json',
          [TEST_VIEWER_HEADER]: 'suzuki',
        },
        body: JSON.stringify({ fields: { title: '鈴木の修正' }, baseUpdatedAt: post.updatedAt }),
      }),
      'posts',
      post.id,
    );
    expect(saved.status).toBe(200);
    const answer = await beat('sato', post.id);
    expect(answer.saved).toMatchObject({ by: '鈴木', mine: false });
    expect(Date.parse(answer.saved!.updatedAt)).toBeGreaterThan(Date.parse(post.updatedAt));
  });
});

describe('who may ask', () => {
  it('answers nobody signed in, a member, or an unknown item with the bare 404; refuses a bad body', async () => {
    const post = await created('sato', '権限の記事');
    expectBare404(await presence(null, post.id));
    expectBare404(await presence('member', post.id));
    expectBare404(await presence('sato', post.id, {}, 'nothing'));
    expect((await presence('sato', post.id, { leaving: 'yes' })).status).toBe(400);
    expect((await rowsOf(post.id)).length).toBe(0);
  });

  it('shows a contributor only their own items, and them only there', async () => {
    const editors = await created('sato', '編集部の記事');
    const theirs = await created('otherWriter', 'ほかの寄稿');
    const mine = await created('writer', '自分の寄稿');
    await beat('sato', editors.id);
    await beat('otherWriter', theirs.id);
    expectBare404(await presence('writer', editors.id));
    expectBare404(await presence('writer', theirs.id));
    expect((await rowsOf(editors.id)).map((r) => r.userId)).toEqual(['p-sato']);

    await beat('sato', mine.id);
    expect(names(await beat('writer', mine.id))).toEqual(['佐藤']);
    expect(names(await beat('sato', mine.id))).toEqual(['寄稿 太郎']);
  });

  it('lets a contributor look at their published item without showing them as its editor', async () => {
    const mine = await created('writer', '公開された寄稿');
    await database.db
      .update(cmsSubmissions)
      .set({ state: 'published' })
      .where(and(eq(cmsSubmissions.endpoint, 'posts'), eq(cmsSubmissions.contentId, mine.id)));
    await beat('suzuki', mine.id);
    expect(names(await beat('writer', mine.id))).toEqual(['鈴木']);
    expect(names(await beat('suzuki', mine.id))).toEqual([]);
  });

  it('works on a page of its own (an object endpoint, written or not)', async () => {
    const home = (who: Who) =>
      routes.presence(
        jsonPost(`${url('home', OBJECT_ITEM)}/presence`, {}, { [TEST_VIEWER_HEADER]: who }),
        'home',
        OBJECT_ITEM,
      );
    expect((await home('sato')).status).toBe(200);
    const answer = presenceAnswerSchema.parse(await (await home('suzuki')).json());
    expect(names(answer)).toEqual(['佐藤']);
    expectBare404(await home('writer'));
  });
});
