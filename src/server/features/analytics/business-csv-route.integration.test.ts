import { describe, expect, it } from 'vitest';
import { pageViews } from '@/server/platform/db/schema';
import { SITE, testDatabase, testViewer, usersByRole } from '@test-support/route-tests';
import { handleBusinessCsv } from './business-csv-route';

const users = usersByRole('csv-');
const NOW = Date.parse('2027-04-28T00:00:00Z');

describe('the business report CSV export', () => {
  const database = testDatabase();

  const get = (query: string, who: keyof typeof users | null) =>
    handleBusinessCsv(
      new Request(`${SITE}/api/admin/analytics/export?${query}`, {
        headers: who ? { 'x-test-viewer': who } : {},
      }),
      {
        db: database.db,
        viewer: testViewer(users),
        now: NOW,
        titles: (_endpoint, ids) =>
          Promise.resolve(new Map(ids.map((id) => [id, '=1+1 と題した記事']))),
      },
    );

  it('gives admins both tables, editors the per-item one, anyone else a 404', async () => {
    await database.db.insert(pageViews).values({
      day: '2027-04-27',
      path: '/posts/p1',
      endpoint: 'posts',
      contentId: 'p1',
      visitorId: '11111111-1111-4111-8111-111111111111',
      audience: 'anonymous',
      paywall: true,
    });
    const months = await get('table=months', 'admin');
    expect(months.status).toBe(200);
    expect(months.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(months.headers.get('content-disposition')).toBe(
      'attachment; filename="business-months-2027-04-28.csv"',
    );
    // A BOM first, so a spreadsheet reads the Japanese headings as UTF-8.
    const bytes = new Uint8Array(await months.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.startsWith('月,新規有料,解約,月末の有料メンバー,新規登録,うち有料化\r\n')).toBe(
      true,
    );
    expect(text.trimEnd().split('\r\n')).toHaveLength(13);

    const posts = await get('table=posts&sort=views', 'editor');
    expect(posts.status).toBe(200);
    // The title starts with =: written with an apostrophe, never run as a formula.
    expect(await posts.text()).toContain("posts,p1,'=1+1 と題した記事,/posts/p1,1,0,1,0,0\r\n");

    for (const [query, who] of [
      ['table=months', 'editor'],
      ['table=posts', 'member'],
      ['table=posts', null],
      ['table=other', 'admin'],
    ] as const) {
      expect((await get(query, who)).status, `${query} as ${who}`).toBe(404);
    }
  });
});
