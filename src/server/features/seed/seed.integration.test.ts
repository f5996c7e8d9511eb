import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_CHOICES } from '@/lib/jobs';
import { SITE_PAGE_ENDPOINTS } from '@/lib/site-pages';
import type { Database } from '@/server/platform/db/client';
import { cmsContents, cmsMedia } from '@/server/platform/db/schema';
import { findMediaUsage } from '@/server/features/media/library';
import { createTestDatabase } from '@test-support/db/test-database';
import { leadOf } from '@/lib/access/lead';
import { CONTENT_MODEL, findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import { listContents } from '@/server/services/cms/store';
import { analyserLoaded } from '@/server/services/cms/search/readings';
import { homeFetchSizes, selectHomePosts } from '@/lib/home/home-selection';
import { FREE_PLAN_POST_LIMIT } from '@/server/features/content/client';
import { htmlToText } from '@/lib/text/html-to-text';
import { DEMO_CONTENT_SUBDIR } from './demo-data';
import { DEMO_ASSETS, DEMO_ASSETS_TOTAL_BUDGET, DEMO_FILE_SIZES } from './demo-media';
import { mp3Seconds, webmSeconds } from './media-duration';
import {
  DEMO_MEDIA_FILES,
  copyDemoMedia,
  demoAssetsDir,
  isContentEmpty,
  registerDemoMedia,
  seedDemoContent,
} from './seed';

type Row = {
  endpoint: string;
  id: string;
  status: string;
  data: Record<string, unknown> | null;
  publishedAt: Date | null;
};

/** Width and height from a PNG's IHDR or a JPEG's first SOF marker. */
function imageSize(file: string): { width: number; height: number } {
  const b = fs.readFileSync(file);
  if (b.subarray(1, 4).toString('latin1') === 'PNG') {
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  let i = 2;
  while (i < b.length) {
    const marker = b[i + 1]!;
    const length = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  throw new Error(`no image size in ${file}`);
}

describe('demo corpus seed', () => {
  let database: Database;
  let rows: Row[];
  let firstRun: Record<string, number>;
  const byEndpoint = (endpoint: string) => rows.filter((r) => r.endpoint === endpoint);
  const readRows = () =>
    database.db
      .select({
        endpoint: cmsContents.endpoint,
        id: cmsContents.id,
        status: cmsContents.status,
        data: cmsContents.data,
        publishedAt: cmsContents.publishedAt,
      })
      .from(cmsContents);

  beforeAll(async () => {
    database = await createTestDatabase();
    expect(await isContentEmpty(database.db)).toBe(true);
    const lines: string[] = [];
    firstRun = (await seedDemoContent(database.db, { log: (l) => lines.push(l) })).created;
    expect(lines.length).toBeGreaterThan(0);
    rows = await readRows();
  }, 300_000);
  afterAll(async () => {
    await database.close();
  });

  it('lets the reading dictionary go once it is done', () => {
    // A fresh instance's idle memory (docs/decisions/060-readings-in-the-server.md).
    expect(analyserLoaded()).toBe(false);
  });

  it('fills an empty database with the promised amounts, all published', async () => {
    expect(await isContentEmpty(database.db)).toBe(false);
    expect(byEndpoint('posts').length).toBeGreaterThanOrEqual(60);
    expect(byEndpoint('series')).toHaveLength(3);
    expect(byEndpoint('audios')).toHaveLength(6);
    expect(byEndpoint('movies')).toHaveLength(6);
    expect(byEndpoint('jobs')).toHaveLength(10);
    expect(byEndpoint('partners')).toHaveLength(5);
    expect(byEndpoint('connect')).toHaveLength(4);
    expect(byEndpoint('writers').length).toBeGreaterThanOrEqual(8);
    expect(byEndpoint('tags').length).toBeGreaterThanOrEqual(10);
    expect(byEndpoint('categories').length).toBeGreaterThanOrEqual(5);
    for (const endpoint of SITE_PAGE_ENDPOINTS) {
      const [page] = byEndpoint(endpoint);
      expect(page?.id, endpoint).toBe('');
      expect(((page?.data?.body as string | undefined) ?? '').length, endpoint).toBeGreaterThan(
        300,
      );
    }
    // The home page's 注目記事: published posts, in the editors' order.
    const [home] = byEndpoint('home');
    const featured = home?.data?.featuredPosts as string[] | undefined;
    expect(featured).toHaveLength(3);
    const postIds = new Set(byEndpoint('posts').map((p) => p.id));
    expect(featured?.every((id) => postIds.has(id))).toBe(true);
    expect(rows.every((r) => r.status === 'PUBLISH' && r.data !== null)).toBe(true);
    for (const [endpoint, count] of Object.entries(firstRun))
      expect(count, endpoint).toBe(byEndpoint(endpoint).length);
  });

  it('has three series of at least four posts each, ordered 1..n', () => {
    for (const series of byEndpoint('series')) {
      const orders = byEndpoint('posts')
        .filter((p) => p.data?.series === series.id)
        .map((p) => p.data?.seriesOrder as number)
        .sort((a, b) => a - b);
      expect(orders.length, series.id).toBeGreaterThanOrEqual(4);
      expect(orders).toEqual(orders.map((_, i) => i + 1));
    }
  });

  it('varies the posts as the brief asks', () => {
    const posts = byEndpoint('posts');
    const formats = posts.map((p) => (p.data?.format as string[])[0]);
    expect(formats.filter((f) => f === 'insight').length).toBeGreaterThanOrEqual(10);
    for (const f of ['article', 'interview', 'report']) expect(formats).toContain(f);

    const previews = posts.filter((p) => p.data?.isPublicPreview === true).length;
    expect(previews / posts.length).toBeGreaterThan(1 / 8);
    expect(previews / posts.length).toBeLessThan(1 / 4);
    expect(
      posts.filter((p) => (p.data?.relatedPosts as string[] | undefined)?.length).length,
    ).toBeGreaterThan(5);
    expect(new Set(posts.map((p) => p.data?.category)).size).toBeGreaterThanOrEqual(5);
    expect(byEndpoint('categories').filter((c) => c.data?.isFeatured === true)).toHaveLength(1);

    const days = posts.map((p) => p.publishedAt!.toISOString().slice(0, 10));
    expect(new Set(days).size).toBe(posts.length);
    expect([...days].sort()[0]! >= '2025-06-01').toBe(true);
    expect([...days].sort().at(-1)! <= '2026-11-30').toBe(true);

    const bodies = posts.map((p) => String(p.data?.body));
    expect(new Set(bodies).size).toBe(posts.length);
    for (const [i, post] of posts.entries()) {
      const body = bodies[i]!;
      const length = Array.from(htmlToText(body)).length;
      expect(length, post.id).toBeGreaterThanOrEqual(1500);
      expect(length, post.id).toBeLessThanOrEqual(3000);
      expect(body.match(/<h2>/g)?.length ?? 0, post.id).toBeGreaterThanOrEqual(3);
      for (const tag of ['<blockquote>', '<figure>', '<img ', '<figcaption>', '<ul>'])
        expect(body, `${post.id} ${tag}`).toContain(tag);
      const description = Array.from(String(post.data?.description)).length;
      expect(description, post.id).toBeGreaterThanOrEqual(60);
      expect(description, post.id).toBeLessThanOrEqual(140);
    }
  });

  it('ends the lead of every members’ body at the members’ divider, within the cap', () => {
    const bodies = [
      ...byEndpoint('posts').map((r) => [r.id, r.data?.body] as const),
      ...byEndpoint('audios').map((r) => [r.id, r.data?.transcript] as const),
      ...byEndpoint('connect').map((r) => [r.id, r.data?.body] as const),
    ];
    expect(bodies.length).toBeGreaterThan(70);
    for (const [id, body] of bodies) {
      const parts = String(body).split(MEMBERS_DIVIDER.html);
      expect(parts, id).toHaveLength(2);
      expect(parts[0], id).toMatch(/^<p>.+<\/p>$/);
      // The whole part before it: not cut short at the cap.
      expect(leadOf(String(body)), id).toBe(parts[0]);
      expect(String(body), id).not.toContain('<hr />');
    }
  });

  it('gives every audio and movie a shipped file of its own whose real length is its duration', () => {
    const shipped = new Map(DEMO_MEDIA_FILES.map((m) => [m.url, m.file]));
    const seconds = (file: string) => {
      const bytes = new Uint8Array(fs.readFileSync(path.join(demoAssetsDir(), file)));
      return file.endsWith('.mp3') ? mp3Seconds(bytes) : webmSeconds(bytes);
    };
    for (const [endpoint, field] of [
      ['audios', 'audioFile'],
      ['movies', 'videoFile'],
    ] as const) {
      const items = byEndpoint(endpoint);
      const files = items.map((item) => {
        const url = (item.data?.[field] as { url?: string } | undefined)?.url ?? '';
        const file = shipped.get(url);
        expect(file, `${item.id} ${url}`).toBeDefined();
        // A made-up embed would not play: the demo movies play from their own files.
        expect(item.data?.embedUrl, item.id).toBeUndefined();
        const duration = item.data?.duration as number;
        expect(Math.abs(duration - seconds(file!)), `${item.id} ${file}`).toBeLessThanOrEqual(1);
        return file;
      });
      expect(new Set(files).size, endpoint).toBe(items.length);
    }
  });

  it('gives every job a partner, the /jobs conditions, a salary range, an https apply URL and a 2027 deadline', () => {
    const remote = new Set<string>();
    for (const job of byEndpoint('jobs')) {
      const data = job.data ?? {};
      expect(data.partner, job.id).toMatch(/^partner-/);
      for (const field of ['employmentType', 'occupation', 'remote', 'salaryUnit'] as const) {
        const values = data[field] as string[];
        expect(values, `${job.id} ${field}`).toHaveLength(1);
        expect(JOB_CHOICES[field], `${job.id} ${field}`).toContain(values[0]);
      }
      const [mode] = data.remote as string[];
      remote.add(mode!);
      // A place of work, unless the work is fully remote.
      if (mode !== 'フルリモート')
        expect(JOB_CHOICES.prefecture, job.id).toContain((data.prefecture as string[])[0]);
      expect(data.location, job.id).toBeTruthy();
      expect(data.salaryMin, job.id).toBeGreaterThan(0);
      if (data.salaryMax !== undefined)
        expect(data.salaryMax).toBeGreaterThanOrEqual(Number(data.salaryMin));
      expect(data.hours, job.id).toBeTruthy();
      expect(data.applyUrl, job.id).toMatch(/^https:\/\/example\.com\//);
      // The end of the closing day in Japan.
      expect(String(data.closingDate), job.id).toMatch(/^2027-\d\d-\d\dT14:59:59/);
    }
    // The location filter's フルリモート has something to find.
    expect([...remote].sort()).toEqual([...JOB_CHOICES.remote].sort());
  });

  it('resolves every relation', () => {
    const ids = new Set(rows.map((r) => `${r.endpoint}/${r.id}`));
    let checked = 0;
    for (const def of CONTENT_MODEL) {
      for (const field of def.fields) {
        if (field.kind !== 'relation' && field.kind !== 'relationList') continue;
        for (const row of byEndpoint(def.endpoint)) {
          const value = row.data?.[field.id];
          const refs = Array.isArray(value) ? (value as string[]) : value ? [value as string] : [];
          for (const ref of refs) {
            expect(ids.has(`${field.endpoint}/${ref}`), `${row.id}.${field.id} → ${ref}`).toBe(
              true,
            );
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('dates the feature issues in the past, one a quarter, the newest the current one', () => {
    const issues = byEndpoint('categories').sort(
      (a, b) => (a.data?.issueNumber as number) - (b.data?.issueNumber as number),
    );
    const times = issues.map((c) => c.publishedAt!.getTime());
    for (let i = 1; i < issues.length; i++) {
      expect(issues[i]!.data?.issueNumber, issues[i]!.id).toBe(
        (issues[i - 1]!.data?.issueNumber as number) + 1,
      );
      const days = (times[i]! - times[i - 1]!) / 86_400_000;
      expect(days, issues[i]!.id).toBeGreaterThanOrEqual(85);
      expect(days, issues[i]!.id).toBeLessThanOrEqual(95);
    }
    expect(Math.max(...times)).toBeLessThan(Date.now());
    expect(issues.filter((c) => c.data?.isFeatured).map((c) => c.id)).toEqual([issues.at(-1)!.id]);
  });

  it('never puts the same cover side by side in a listing or on the home page', () => {
    const cover = (row: Row) => (row.data?.coverImage as { url: string } | undefined)?.url ?? '';
    const newestFirst = (list: Row[]) =>
      [...list].sort((a, b) => b.publishedAt!.getTime() - a.publishedAt!.getTime());
    const expectApart = (list: Row[], gap: number, what: string) => {
      list.forEach((row, i) => {
        for (const near of list.slice(i + 1, i + gap))
          expect(cover(near), `${what}: ${row.id} and ${near.id}`).not.toBe(cover(row));
      });
    };
    const posts = newestFirst(byEndpoint('posts'));
    expectApart(posts, 8, '記事一覧');
    const groups = new Map<string, Row[]>();
    for (const post of posts) {
      const series = post.data?.series as string | undefined;
      const keys = [
        `category ${post.data?.category as string}`,
        `format ${(post.data?.format as string[])[0]}`,
        ...((post.data?.tags as string[] | undefined) ?? []).map((t) => `tag ${t}`),
        ...(series ? [`series ${series}`] : []),
      ];
      for (const key of keys) groups.set(key, [...(groups.get(key) ?? []), post]);
    }
    for (const [key, list] of groups) expectApart(list, 3, key);
    for (const endpoint of ['audios', 'movies', 'jobs', 'connect', 'series', 'categories']) {
      const list = byEndpoint(endpoint);
      expect(new Set(list.map(cover)).size, endpoint).toBe(list.length);
    }

    // The home page, its posts chosen as the page chooses them.
    const inCategory = (id: string) => posts.filter((p) => p.data?.category === id);
    const issue = byEndpoint('categories').find((c) => c.data?.isFeatured)!;
    const sizes = homeFetchSizes();
    const featured = (byEndpoint('home')[0]?.data?.featuredPosts as string[]).map((id) =>
      posts.find((p) => p.id === id)!,
    );
    const home = selectHomePosts({
      featured,
      latest: posts.slice(0, sizes.latest),
      feature: inCategory(issue.id).slice(0, sizes.feature),
      insight: posts
        .filter((p) => (p.data?.format as string[])[0] === 'insight')
        .slice(0, sizes.insight),
    });
    const shown = [
      issue,
      ...[home.lead!, ...home.picks, ...home.feature, ...home.insight, ...home.latest],
      ...byEndpoint('series'),
      ...['movies', 'audios', 'jobs'].flatMap((e) => newestFirst(byEndpoint(e)).slice(0, 3)),
    ];
    expect(shown.length).toBeGreaterThan(20);
    expect(new Set(shown.map(cover)).size).toBe(shown.length);
  });

  it('links only to pages the site has', () => {
    const hrefs = new Set(
      [...JSON.stringify(rows.map((r) => r.data)).matchAll(/href=\\"(\/[^"\\#?]*)/g)].map(
        (m) => m[1]!,
      ),
    );
    expect(hrefs).toContain('/contact');
    expect(hrefs).toContain('/service-plans');
    for (const href of hrefs) {
      const page = path.join(process.cwd(), 'src/app', href, 'page.tsx');
      expect(fs.existsSync(page), href).toBe(true);
    }
  });

  it('tells the same story of who reads what on every page', () => {
    const page = (endpoint: string) => htmlToText(String(byEndpoint(endpoint)[0]?.data?.body));
    const everything = rows.map((r) => JSON.stringify(r.data)).join('');
    for (const endpoint of ['about', 'faq']) {
      const text = page(endpoint);
      // The free-plan list (SPEC §7) and what only a paid plan opens.
      expect(text, endpoint).toContain(`新しいもの${FREE_PLAN_POST_LIMIT}本を全文で`);
      expect(text, endpoint).toContain('すべての音声と動画');
      expect(text, endpoint).toContain('「無料公開」の印');
    }
    // コネクト is every signed-in member's: no page may promise it to paid members only, or a
    // sign-up the site does not have.
    expect(everything).not.toMatch(/有料会員[^。]*(イベント|読書会)/);
    expect(everything).not.toContain('会員ページ');
    expect(everything).not.toContain('プライバシーポリシーに従い');
    // Where a paid plan is managed: the plans page's 「プランの管理」.
    expect(page('faq')).toContain('「プランの管理」');
    expect(page('specified-commercial-transactions')).toContain('『プランの管理』');
  });

  it('reads back through the content API with references expanded', async () => {
    const def = findEndpoint('posts')!;
    const list = await listContents(
      database.db,
      def,
      { limit: 1000, offset: 0, depth: 1 },
      { kind: 'published' },
    );
    expect(list.totalCount).toBe(byEndpoint('posts').length);
    const post = list.contents.find((p) => p.id === 'post-003')!;
    expect((post.series as { title: string }).title).toBe('まちを編む建築');
    expect((post.writers as { name: string }[])[0]?.name).toBe('小林 亮');
    const search = await listContents(
      database.db,
      def,
      { limit: 10, offset: 0, depth: 0, q: '組版' },
      { kind: 'published' },
    );
    expect(search.totalCount).toBeGreaterThan(0);
  });

  it('uses only shipped media, with their real dimensions and sizes', () => {
    const shipped = new Map(DEMO_MEDIA_FILES.map((m) => [m.url, m.file]));
    const urls = JSON.stringify(rows.map((r) => r.data)).match(/\/uploads\/demo\/[\w.-]+/g) ?? [];
    expect(urls.length).toBeGreaterThan(100);
    for (const url of new Set(urls)) expect(shipped.has(url), url).toBe(true);

    for (const row of rows) {
      for (const value of Object.values(row.data ?? {})) {
        if (typeof value !== 'object' || value === null || !('url' in value)) continue;
        const file = shipped.get(String(value.url));
        if (!file) continue;
        const full = path.join(demoAssetsDir(), file);
        if ('width' in value) expect(value, `${row.id} ${file}`).toMatchObject(imageSize(full));
        if ('fileSize' in value) expect(value.fileSize, file).toBe(fs.statSync(full).size);
      }
    }
  });

  it('registers every shipped file in the media library, with its real size and alt text', async () => {
    const media = await database.db.select().from(cmsMedia);
    expect(media).toHaveLength(DEMO_MEDIA_FILES.length);
    for (const { file, url } of DEMO_MEDIA_FILES) {
      const row = media.find((m) => m.url === url);
      expect(row, file).toMatchObject({
        filename: file,
        fileSize: fs.statSync(path.join(demoAssetsDir(), file)).size,
        uploadedBy: null,
      });
      if (row?.kind === 'image') {
        expect(row, file).toMatchObject(imageSize(path.join(demoAssetsDir(), file)));
        expect(row.alt, file).not.toBe('');
      } else {
        expect(row?.contentType, file).toMatch(/^(audio\/mpeg|video\/webm)$/);
      }
    }
    // The media library sees where each is used: a cover is on some post.
    const cover = DEMO_MEDIA_FILES.find((m) => m.file === 'cover-01.jpg')!;
    expect((await findMediaUsage(database.db, cover.url)).length).toBeGreaterThan(0);
  });

  it('creates nothing on a second run', async () => {
    const again = await seedDemoContent(database.db);
    expect(Object.values(again.created).every((n) => n === 0)).toBe(true);
    const after = await readRows();
    expect(after).toHaveLength(rows.length);
    expect(await database.db.select().from(cmsMedia)).toHaveLength(DEMO_MEDIA_FILES.length);
  });
});

describe('demo media', () => {
  it('ships every file within its budget', () => {
    let total = 0;
    for (const asset of DEMO_ASSETS) {
      const full = path.join(demoAssetsDir(), asset.file);
      expect(fs.existsSync(full), asset.file).toBe(true);
      const size = fs.statSync(full).size;
      expect(size, asset.file).toBeLessThanOrEqual(asset.maxBytes);
      if (asset.width)
        expect(imageSize(full), asset.file).toEqual({ width: asset.width, height: asset.height });
      if (DEMO_FILE_SIZES[asset.file] !== undefined) expect(size).toBe(DEMO_FILE_SIZES[asset.file]);
      total += size;
    }
    expect(total).toBeLessThanOrEqual(DEMO_ASSETS_TOTAL_BUDGET);
    expect(DEMO_MEDIA_FILES.map((m) => m.file)).toEqual(DEMO_ASSETS.map((a) => a.file));
    // No media file in assets/demo is left out of the list (it would never be copied); the
    // corpus's text is in its content/ folder.
    const shippedFiles = fs
      .readdirSync(demoAssetsDir(), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
    expect(shippedFiles.sort()).toEqual(DEMO_ASSETS.map((a) => a.file).sort());
    expect(fs.readdirSync(path.join(demoAssetsDir(), DEMO_CONTENT_SUBDIR))).toContain('posts.json');
  });

  it('copies the images into uploads/demo, sound and video into protected/demo, and leaves existing copies alone', async () => {
    const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-uploads-'));
    try {
      const first = DEMO_MEDIA_FILES[0]!;
      fs.mkdirSync(path.join(uploads, 'demo'), { recursive: true });
      fs.writeFileSync(path.join(uploads, 'demo', first.file), 'kept');
      await copyDemoMedia(uploads);
      for (const { file, url } of DEMO_MEDIA_FILES) {
        const members = /\.(mp3|webm)$/.test(file);
        expect(url).toBe(members ? `/media/protected/demo/${file}` : `/uploads/demo/${file}`);
        const stored = members
          ? path.join(uploads, 'protected', 'demo', file)
          : path.join(uploads, 'demo', file);
        expect(fs.existsSync(stored), file).toBe(true);
      }
      expect(fs.readFileSync(path.join(uploads, 'demo', first.file), 'utf8')).toBe('kept');
      await copyDemoMedia(uploads); // again: no error
    } finally {
      fs.rmSync(uploads, { recursive: true, force: true });
    }
  });
});

describe('registerDemoMedia', () => {
  it('with an uploads directory, registers only the copies still there', async () => {
    const database = await createTestDatabase();
    const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-register-'));
    try {
      await copyDemoMedia(uploads);
      const [gone, alsoGone] = [DEMO_MEDIA_FILES[0]!, DEMO_MEDIA_FILES.at(-1)!];
      for (const m of [gone, alsoGone])
        fs.rmSync(path.join(uploads, m.url.replace(/^\/(uploads|media)\//, '')));

      expect(await registerDemoMedia(database.db, { uploadsDir: uploads })).toBe(
        DEMO_MEDIA_FILES.length - 2,
      );
      const urls = (await database.db.select({ url: cmsMedia.url }).from(cmsMedia)).map(
        (r) => r.url,
      );
      expect(urls).toHaveLength(DEMO_MEDIA_FILES.length - 2);
      expect(urls).not.toContain(gone.url);
      expect(urls).not.toContain(alsoGone.url);
    } finally {
      fs.rmSync(uploads, { recursive: true, force: true });
      await database.close();
    }
  });
});
