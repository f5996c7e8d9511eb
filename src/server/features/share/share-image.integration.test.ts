import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { shareImagePath } from '@/lib/share/share-image-path';
import { CLIENT_IP_HEADER } from '@/server/platform/http/request-origin';
import { addressKey } from '@/server/platform/rate-limit/client-address';
import { countOf, hit } from '@/server/platform/rate-limit/limiter';
import { testDatabase } from '@test-support/route-tests';
import { GET } from '@/app/share-image/[endpoint]/[id]/route';
import { parseSubsets, shareFonts } from './share-font';
import { titlePhrases } from './share-image';
import { SHARE_IMAGE_LIMITS, shareImageResponse } from './share-image-route';
import { readShareSubject } from './share-subject';
import { createContent, updateContent } from '@/server/services/cms/writes';

// The generated share image, through its route on a real database: a PNG of 1200×630 for a
// published item, cached for good at its version's address, and nothing for a draft.

const database = testDatabase();
const SECRET = 'KAIINNOHONBUN5d2c';

async function get(path: string): Promise<Response> {
  const url = new URL(path, 'http://localhost:3000');
  const [, , endpoint = '', id = ''] = url.pathname.split('/');
  return GET(new Request(url), { params: Promise.resolve({ endpoint, id }) });
}

function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

let version = '';

beforeAll(async () => {
  await createContent(database.db, findEndpoint('posts')!, {
    id: 'share-post',
    body: {
      title: '建築家が語る、木造建築の未来と日本の森林資源',
      body: `<p>導入</p><hr data-members-divider><p>${SECRET}</p>`,
    },
    status: 'publish',
  });
  version = (await readShareSubject('posts', 'share-post'))!.version!;
  await createContent(database.db, findEndpoint('posts')!, {
    id: 'share-draft',
    body: { title: '下書き' },
    status: 'draft',
  });
});

describe('the generated share image', () => {
  it('is a 1200×630 PNG, cached for good at its version’s address', async () => {
    const started = performance.now();
    const res = await get(shareImagePath('posts', 'share-post', version));
    const ms = performance.now() - started;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Array.from(bytes.slice(1, 4), (b) => String.fromCharCode(b)).join('')).toBe('PNG');
    expect(pngSize(bytes)).toEqual({ width: 1200, height: 630 });
    // Figures for docs/decisions/030-share-and-search.md.
    console.info(`share image: ${bytes.length} bytes, first render ${Math.round(ms)} ms`);
    expect(bytes.length).toBeLessThan(200_000);
    const again = performance.now();
    await (await get(shareImagePath('posts', 'share-post', version))).arrayBuffer();
    expect(performance.now() - again).toBeLessThan(ms);
  });

  it('is cached briefly at an address without the current version', async () => {
    const res = await get('/share-image/posts/share-post?v=old');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it('is not made for drafts, endpoints without pages or malformed ids', async () => {
    for (const path of [
      '/share-image/posts/share-draft',
      '/share-image/posts/no-such-post',
      '/share-image/writers/w1',
      '/share-image/posts/..%2Fetc',
      '/share-image/about/x',
    ])
      expect((await get(path)).status, path).toBe(404);
  });
});

describe('its limit per client', () => {
  // Ten seconds into a minute: the minute's window has 50 s left.
  const NOW = Date.UTC(2027, 3, 1, 9, 0, 10);
  const [perMinute] = SHARE_IMAGE_LIMITS;

  /** A post of that title, published. */
  const post = (id: string, title: string) =>
    createContent(database.db, findEndpoint('posts')!, {
      id,
      body: { title },
      status: 'publish',
    });

  /** The image of a post as the client at `ip` asks for it through the front server. */
  async function ask(id: string, ip: string, headers: Record<string, string> = {}) {
    const response = await shareImageResponse({
      endpoint: 'posts',
      id,
      version: null,
      siteName: 'AXIS',
      headers: new Headers({ ...headers, [CLIENT_IP_HEADER]: ip }),
      now: NOW,
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    // A digest to compare: vitest's deep equality walks a 50 KB image byte by byte.
    return { response, bytes, image: createHash('sha256').update(bytes).digest('hex') };
  }

  const rendersBy = (ip: string) => countOf(database.db, perMinute!, addressKey(ip)!, NOW);

  it('renders once for concurrent requests, and serves what it rendered for nothing', async () => {
    await post('share-burst', '同時に求められた画像は一度だけ描く');
    const ip = '203.0.113.5';
    const answers = await Promise.all(Array.from({ length: 5 }, () => ask('share-burst', ip)));
    for (const { response, image } of answers) {
      expect(response.status).toBe(200);
      expect(image).toBe(answers[0]!.image);
    }
    expect(await rendersBy(ip)).toBe(1);
    expect((await ask('share-burst', ip)).response.status).toBe(200);
    expect(await rendersBy(ip)).toBe(1);
  });

  it('answers 429 with Retry-After past the limit, whatever the client claims', async () => {
    await post('share-within', '上限までは描く');
    await post('share-beyond', '上限を超えると描かない');
    const ip = '203.0.113.6';
    for (let i = 1; i < perMinute!.max; i++)
      await hit(database.db, perMinute!, addressKey(ip)!, NOW);
    expect((await ask('share-within', ip)).response.status).toBe(200);
    const claims: Record<string, string>[] = [{}, { 'x-forwarded-for': '198.51.100.1' }];
    for (const forged of claims) {
      const { response, bytes } = await ask('share-beyond', ip, forged);
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('50');
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      expect(new TextDecoder().decode(bytes)).toContain('待ってからもう一度お試しください');
    }
    // Another client waiting on the drawing the refused one started draws it on its own.
    await post('share-shared', '断られた依頼を待っていた別の依頼');
    const [refused, served] = await Promise.all([
      ask('share-shared', ip),
      ask('share-shared', '198.51.100.8'),
    ]);
    expect([refused.response.status, served.response.status]).toEqual([429, 200]);
    // What is already drawn costs no allowance; another client has its own.
    expect((await ask('share-within', ip)).response.status).toBe(200);
    expect((await ask('share-beyond', '198.51.100.7')).response.status).toBe(200);
    expect((await ask('share-beyond', ip)).response.status).toBe(200);
  });

  it('never serves one item’s image for another, nor the old version after an edit', async () => {
    await post('share-first', '最初の記事');
    await post('share-second', '二番目の記事');
    const ip = '203.0.113.7';
    const first = (await ask('share-first', ip)).image;
    const second = (await ask('share-second', ip)).image;
    expect(second).not.toEqual(first);
    await updateContent(
      database.db,
      findEndpoint('posts')!,
      'share-first',
      { title: '最初の記事（改訂）' },
      { draft: false },
    );
    const edited = await ask('share-first', ip);
    expect(edited.response.status).toBe(200);
    expect(edited.image).not.toBe(first);
    expect(edited.image).not.toBe(second);
  });
});

describe('its title and font', () => {
  it('breaks the title between phrases, never inside a word', () => {
    expect(titlePhrases('建築家が語る、木造建築の未来')).toEqual([
      '建築家が',
      '語る、',
      '木造建築の',
      '未来',
    ]);
    expect(titlePhrases('あ'.repeat(100)).join('')).toHaveLength(60);
  });

  it('loads only the font files that hold the text’s characters', async () => {
    const { fonts, texts } = await shareFonts(['木造建築 AXIS', '絵文字🎨は描かない']);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.length).toBeLessThan(16);
    expect(texts).toEqual(['木造建築 AXIS', '絵文字は描かない']);
    expect(
      parseSubsets(
        '@font-face { src: url(./files/a.woff) format("woff"); unicode-range: U+30-39,U+41; }',
      ),
    ).toEqual([
      {
        file: 'a.woff',
        ranges: [
          [0x30, 0x39],
          [0x41, 0x41],
        ],
      },
    ]);
  });
});
