/** The content benchmark's corpus: posts of deterministic Japanese text over 20 categories. */
import { sql } from 'drizzle-orm';
import { createApiKey } from '@/server/services/cms/api-keys';
import { type EndpointDef, findEndpoint } from '../src/lib/cms/model';
import { searchColumns } from '@/server/services/cms/search-index';
import { openDatabase } from '@/server/platform/db/client';
import { cmsContents } from '@/server/platform/db/schema';

export const CATEGORIES = 20;

/** A content row published at `at`, with its search columns, for a bulk insert. */
export async function publishedRow(
  def: EndpointDef,
  id: string,
  data: Record<string, unknown>,
  at: Date,
  options: { readings?: boolean } = {},
) {
  return {
    endpoint: def.endpoint,
    id,
    status: 'PUBLISH' as const,
    data,
    createdAt: at,
    updatedAt: at,
    publishedAt: at,
    revisedAt: at,
    ...(await searchColumns(def, data, options)),
  };
}

/** Deterministic pseudo-random text from a design vocabulary, so runs are comparable. */
function generator(seed: number) {
  let s = seed >>> 0;
  const next = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const words = [
    'デザイン',
    '建築',
    '素材',
    '光',
    '余白',
    '都市',
    '家具',
    '照明',
    '書体',
    '印刷',
    '展覧会',
    '工芸',
    '木材',
    '陶磁器',
    '写真',
    '映像',
    '空間',
    '庭園',
    '住宅',
    '美術館',
    'ブランド',
    'パッケージ',
    '編集',
    '紙',
    '色彩',
    '構造',
    '職人',
    '地域',
    '循環',
    '再生',
    'Bauhaus',
    'typography',
    'UI',
    '2026',
    '記憶',
    '風景',
    '身体',
    '道具',
  ];
  const rare = [
    '金継ぎ',
    '漆芸',
    '活版',
    '曲木',
    '藍染',
    '組子',
    '和紙',
    '箔押し',
    '鋳物',
    '竹細工',
  ];
  const word = () => words[Math.floor(next() * words.length)]!;
  const sentence = () =>
    `${word()}と${word()}の関係から、${word()}のあり方を考える。${word()}は${word()}に新しい意味を与えている。`;
  return {
    next,
    title: (i: number) => `${word()}と${word()}をめぐって 第${i}回`,
    body: (i: number) =>
      `<p>${sentence()}${sentence()}</p><h2>${word()}について</h2><p>${sentence()}${i % 97 === 0 ? rare[(i / 97) % rare.length] : ''}${sentence()}</p>`,
  };
}

/** Seeds the corpus and returns a GET key for it. */
export async function seedCorpus(
  posts: number,
  databaseUrl: string | undefined,
  dataDir: string,
  /** false: the index as it was before readings (bench/search-readings.ts compares). */
  readings = true,
): Promise<string> {
  const started = Date.now();
  const database = await openDatabase({ databaseUrl, dataDir });
  const postsDef = findEndpoint('posts')!;
  const gen = generator(42);
  const now = Date.UTC(2026, 0, 1);
  // Indexed as a write indexes them: a row left unindexed is indexed by the server at its start,
  // which started the reading analyser's child in every benchmark (docs/benchmarks.md, "Memory").
  const categoriesDef = findEndpoint('categories')!;
  const categories = [];
  for (let i = 0; i < CATEGORIES; i++)
    categories.push(
      await publishedRow(categoriesDef, `cat-${i}`, { name: `特集 ${i}` }, new Date(now), {
        readings,
      }),
    );
  await database.db.insert(cmsContents).values(categories);
  for (let offset = 0; offset < posts; offset += 1000) {
    const rows = [];
    for (let i = offset; i < Math.min(posts, offset + 1000); i++) {
      const data = {
        title: gen.title(i),
        description: `${gen.title(i)}の記録。`,
        body: gen.body(i),
        isPublicPreview: i % 6 === 0,
        category: `cat-${i % CATEGORIES}`,
        seriesOrder: i,
      };
      const at = new Date(now + i * 60_000);
      const id = `post-${String(i).padStart(6, '0')}`;
      rows.push(await publishedRow(postsDef, id, data, at, { readings }));
    }
    await database.db.insert(cmsContents).values(rows);
  }
  const { key } = await createApiKey(database.db, { name: 'bench', permissions: ['GET'] });
  // The state a maintained database is in (autovacuum on a server; PGlite has none).
  await database.db.execute(sql`VACUUM ANALYZE`);
  await database.close();
  console.log(`  seeded ${posts} posts in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return key;
}
