import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { type ApiCall, apiClient } from '@test-support/content-api-client';

process.env.CMS_RATE_LIMIT_READ = '1000000';
process.env.CMS_RATE_LIMIT_WRITE = '1000000';

/** A small deterministic generator, so a failure can be replayed from its seed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = [
  '[',
  ']',
  '(',
  ')',
  '[and]',
  '[or]',
  '[equals]',
  '[not_equals]',
  '[less_than]',
  '[greater_than]',
  '[contains]',
  '[not_contains]',
  '[exists]',
  '[not_exists]',
  '[begins_with]',
  '[bogus]',
  'title',
  'id',
  'publishedAt',
  'createdAt',
  'seriesOrder',
  'isPublicPreview',
  'category',
  'writers',
  'tags',
  'coverImage',
  'body',
  'format',
  'nope',
  'a.b',
  '.',
  ',',
  '-',
  '--',
  ' ',
  '%',
  "'",
  '"',
  ';',
  '\\',
  'true',
  'false',
  '2026-01-01T00:00:00Z',
  '2026-13',
  '1e9',
  '-5',
  '0',
  '99999999999999999999',
  'デザイン',
  '建築',
  '　',
  'NULL',
  '$1',
  '::',
  "'); DROP TABLE cms_contents; --",
  '\u0000',
  '𠮷',
];

describe('fuzzing the query parameters', () => {
  const database = testDatabase({ global: false });
  let api: ApiCall;
  beforeAll(async () => {
    api = (await apiClient(database.db, ['GET', 'POST', 'PUT'])).call;
    await api('PUT', 'categories/c1', { body: { name: '建築' } });
    await api('PUT', 'posts/p1', { body: { title: 'デザイン', category: 'c1', seriesOrder: 1 } });
  });

  it('never answers 5xx to thousands of random filters, orders, fields and paging values', async () => {
    const random = rng(20261122);
    const pick = () => PIECES[Math.floor(random() * PIECES.length)]!;
    const junk = (n: number) => Array.from({ length: 1 + Math.floor(random() * n) }, pick).join('');
    const statuses = new Map<number, number>();
    for (let i = 0; i < 3000; i++) {
      const params = new URLSearchParams();
      const which = i % 6;
      if (which === 0 || random() < 0.3) params.set('filters', junk(8));
      if (which === 1 || random() < 0.2) params.set('orders', junk(4));
      if (which === 2 || random() < 0.2) params.set('fields', junk(4));
      if (which === 3) params.set(['limit', 'offset', 'depth'][i % 3]!, junk(2));
      if (which === 4) params.set('ids', junk(5));
      if (which === 5) params.set('q', junk(6));
      const path = random() < 0.2 ? `posts/p1?${params}` : `posts?${params}`;
      const res = await api('GET', path);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500) throw new Error(`5xx for ${path}: ${res.text}`);
      if (res.status === 400) expect(res.body).toHaveProperty('message');
    }
    // The generator reaches both outcomes, so the test exercises the parsers and the SQL.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(100);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(100);
  }, 120_000);
});
