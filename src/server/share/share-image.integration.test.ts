import { beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { shareImagePath } from '@/lib/share/share-image-path';
import { createContent } from '@/server/cms/store';
import { testDatabase } from '@test-support/route-tests';
import { GET } from '@/app/share-image/[endpoint]/[id]/route';
import { parseSubsets, shareFonts } from './share-font';
import { titlePhrases } from './share-image';
import { readShareSubject } from './share-subject';

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
