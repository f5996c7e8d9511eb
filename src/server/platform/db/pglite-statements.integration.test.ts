import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PREPARED_STATEMENTS, keepStatementsPrepared } from './pglite-statements';

/**
 * The embedded database's query with its statements kept prepared answers exactly as PGlite's
 * own: the same rows, types, counts and errors, in turn with transactions, and it holds no more
 * statements than its cap. `plain` is an untouched PGlite on the same data for comparison.
 */
describe('statements kept prepared on PGlite', () => {
  let kept: PGlite;
  let plain: PGlite;

  beforeAll(async () => {
    [kept, plain] = await Promise.all([PGlite.create(), PGlite.create()]);
    keepStatementsPrepared(kept);
    for (const client of [kept, plain])
      await client.exec(`
        CREATE TABLE items (
          id serial PRIMARY KEY, slug text UNIQUE NOT NULL, at timestamptz, data jsonb,
          tags text[], bytes bytea, flag boolean, amount numeric, n int8
        );`);
  });
  afterAll(async () => {
    await Promise.all([kept?.close(), plain?.close()]);
  });

  const prepared = async () =>
    (
      await kept.query<{ name: string; statement: string }>(
        `SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'axis\\_%'`,
      )
    ).rows;

  it('writes and reads every kind of value as PGlite does, as objects and as arrays', async () => {
    const insert =
      'INSERT INTO items (slug, at, data, tags, bytes, flag, amount, n) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id';
    const rows: unknown[][] = [
      [
        'a',
        new Date('2026-11-30T01:02:03.456Z'),
        { 記事: [1, '二'] },
        ['x', 'y,z'],
        new Uint8Array([0, 255]),
        true,
        '12.50',
        9007199254740993n,
      ],
      ['b', null, null, [], new Uint8Array([]), false, null, null],
    ];
    for (const values of rows) {
      const [a, b] = await Promise.all([kept.query(insert, values), plain.query(insert, values)]);
      expect(a).toEqual(b);
      expect(a.affectedRows).toBe(1);
    }
    const select = 'SELECT * FROM items WHERE slug = ANY($1) ORDER BY id';
    for (const rowMode of ['object', 'array'] as const) {
      const a = await kept.query(select, [['a', 'b']], { rowMode });
      expect(a).toEqual(await plain.query(select, [['a', 'b']], { rowMode }));
      expect(a.rows).toHaveLength(2);
    }
    const update = 'UPDATE items SET flag = NOT flag WHERE slug <> $1';
    expect(await kept.query(update, ['none'])).toEqual(await plain.query(update, ['none']));
    // A query without parameters, and one that returns no rows.
    expect(await kept.query('SELECT count(*)::int AS n FROM items')).toEqual(
      await plain.query('SELECT count(*)::int AS n FROM items'),
    );
    expect((await kept.query('DELETE FROM items WHERE slug = $1', ['zz'])).affectedRows).toBe(0);
  });

  it('reads with the caller’s parsers over the client’s, and a type registered later', async () => {
    // As drizzle asks: dates as the database writes them, in the same options object each time.
    const options = { rowMode: 'array' as const, parsers: { 1184: (value: string) => value } };
    const select = 'SELECT at, flag, amount FROM items WHERE slug = $1';
    const a = await kept.query<unknown[]>(select, ['a'], options);
    expect(a).toEqual(await plain.query(select, ['a'], options));
    expect(a.rows[0]![0]).toBe('2026-11-30 01:02:03.456+00');
    expect(a.rows[0]![1]).toBe(false);
    // A parser the client gains later (as PGlite's refreshArrayTypes adds them) is found.
    for (const client of [kept, plain]) client.parsers[1700] = (value: string) => Number(value);
    const b = await kept.query<unknown[]>(select, ['a'], options);
    expect(b).toEqual(await plain.query(select, ['a'], options));
    expect(b.rows[0]![2]).toBe(12.5);
    for (const client of [kept, plain]) delete client.parsers[1700];
  });

  it('prepares a text once and runs it again by its name', async () => {
    const text = 'SELECT slug FROM items WHERE id = $1';
    for (const id of [1, 2, 1]) await kept.query(text, [id]);
    expect((await prepared()).filter((s) => s.statement === text)).toHaveLength(1);
  });

  it('fails as PGlite fails, names the query, and goes on working', async () => {
    const insert = 'INSERT INTO items (slug) VALUES ($1)';
    const error = await kept.query(insert, ['a']).catch((e: unknown) => e);
    const expected = await plain.query(insert, ['a']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', query: insert, params: ['a'] });
    expect((error as Error).message).toBe((expected as Error).message);
    // Bad SQL is not kept.
    await expect(kept.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
    expect((await prepared()).some((s) => s.statement === 'SELEC 1')).toBe(false);
    expect((await kept.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('prepares anew after DISCARD ALL and after a table it reads changes shape', async () => {
    const text = 'SELECT * FROM items WHERE slug = $1';
    expect(Object.keys((await kept.query(text, ['a'])).rows[0]!)).not.toContain('note');
    await kept.exec('DISCARD ALL');
    expect((await kept.query(text, ['a'])).rows).toHaveLength(1);
    await kept.exec(`ALTER TABLE items ADD COLUMN note text DEFAULT 'メモ'`);
    expect((await kept.query(text, ['a'])).rows[0]).toMatchObject({ slug: 'a', note: 'メモ' });
    expect((await kept.query(text, ['b'])).rows[0]).toMatchObject({ slug: 'b', note: 'メモ' });
  });

  it('waits for a transaction under way, as PGlite’s own query does', async () => {
    const order: string[] = [];
    const transaction = kept.transaction(async (tx) => {
      await tx.query('INSERT INTO items (slug) VALUES ($1)', ['in-tx']);
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('commit');
    });
    const read = kept
      .query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE slug = $1', ['in-tx'])
      .then(({ rows }) => order.push(`read ${rows[0]!.n}`));
    await Promise.all([transaction, read]);
    expect(order).toEqual(['commit', 'read 1']);
  });

  it(`keeps at most ${MAX_PREPARED_STATEMENTS} statements, closing the least recently used`, async () => {
    const first = 'SELECT $1::int + 0 AS n';
    await kept.query(first, [1]);
    for (let i = 1; i <= MAX_PREPARED_STATEMENTS + 10; i++)
      expect((await kept.query(`SELECT $1::int + ${i} AS n`, [1])).rows).toEqual([{ n: 1 + i }]);
    const statements = await prepared();
    expect(statements.length).toBeLessThanOrEqual(MAX_PREPARED_STATEMENTS);
    expect(statements.some((s) => s.statement === first)).toBe(false);
    expect((await kept.query(first, [5])).rows).toEqual([{ n: 5 }]);
  });
});
