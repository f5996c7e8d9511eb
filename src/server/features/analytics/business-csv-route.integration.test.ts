import { describe, expect, it } from 'vitest';
import { pageViews, purchases } from '@/server/platform/db/schema';
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
    // Paid in April (Japan): a purchase of p1 and a tip for it; a refunded tip is no revenue.
    const paid = (id: string, kind: 'post' | 'tip', amount: number, state = 'paid' as const) => ({
      id,
      kind,
      endpoint: 'posts',
      contentId: 'p1',
      contentCreatedAt: new Date('2027-01-01T00:00:00Z'),
      title: 'p1',
      amount,
      tax: Math.floor((amount * 10) / 110),
      method: 'card' as const,
      customerId: 'cus_csv',
      state,
      paidAt: new Date('2027-04-20T00:00:00Z'),
    });
    await database.db
      .insert(purchases)
      .values([
        paid('pur_csv_post', 'post', 300),
        paid('pur_csv_tip', 'tip', 1000),
        { ...paid('pur_csv_refunded', 'tip', 500), state: 'refunded' },
      ]);
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
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      '月,新規有料,解約,月末の有料メンバー,新規登録,うち有料化,記事の売上（円）,チップ（円）,ギフト（円）',
    );
    expect(lines).toHaveLength(13);
    expect(lines.at(-1)).toBe('2027-04,0,0,0,0,0,300,1000,0');

    const posts = await get('table=posts&sort=views', 'editor');
    expect(posts.status).toBe(200);
    // The title starts with =: written with an apostrophe, never run as a formula. An editor
    // sees the item's purchases and tips, not its yen.
    const editors = await posts.text();
    expect(editors).toContain("posts,p1,'=1+1 と題した記事,/posts/p1,1,0,1,0,0,1,1,0,0\r\n");
    expect(editors).not.toContain('売上');
    const admins = await (await get('table=posts&sort=views', 'admin')).text();
    expect(admins).toContain("posts,p1,'=1+1 と題した記事,/posts/p1,1,0,1,0,0,1,1,0,0,1300\r\n");

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
