import { FilterSyntaxError } from './filters';
import { type ListQuery, parseDetailQuery, parseListQuery, QueryError } from './params';

const list = (query: string) => parseListQuery(new URLSearchParams(query));
const detail = (query: string) => parseDetailQuery(new URLSearchParams(query));

function queryError(parse: () => unknown): QueryError {
  try {
    parse();
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error('expected a QueryError');
}

const DEFAULTS: ListQuery = { depth: 1, richEditorFormat: 'html', limit: 10, offset: 0 };

describe('parseListQuery', () => {
  it('returns the defaults for an empty query', () => {
    expect(list('')).toEqual(DEFAULTS);
  });

  it('treats every present-but-empty parameter as absent', () => {
    expect(
      list('limit=&offset=&depth=&orders=&fields=&ids=&q=&filters=&draftKey=&richEditorFormat='),
    ).toEqual(DEFAULTS);
  });

  it('ignores unknown parameters, including differently cased known ones', () => {
    expect(list('foo=bar&LIMIT=abc&Depth=9&_=1')).toEqual(DEFAULTS);
  });

  it('parses a full query', () => {
    expect(
      list(
        'limit=20&offset=40&depth=2&orders=-publishedAt,title&fields=id,title,author.name' +
          '&ids=a1,b_2,c-3&q=%20デザイン%20&filters=category[equals]news&draftKey=dk&richEditorFormat=object',
      ),
    ).toEqual({
      limit: 20,
      offset: 40,
      depth: 2,
      orders: [
        { field: 'publishedAt', direction: 'desc' },
        { field: 'title', direction: 'asc' },
      ],
      fields: [['id'], ['title'], ['author', 'name']],
      ids: ['a1', 'b_2', 'c-3'],
      q: 'デザイン',
      filters: { kind: 'condition', field: 'category', operator: 'equals', value: 'news' },
      draftKey: 'dk',
      richEditorFormat: 'object',
    } satisfies ListQuery);
  });

  describe('limit', () => {
    it.each([
      ['0', 0],
      ['1', 1],
      ['100', 100],
      ['1000', 1000],
      ['010', 10],
    ])('accepts %s', (raw, expected) => {
      expect(list(`limit=${raw}`).limit).toBe(expected);
    });

    it.each([
      '1001',
      '-1',
      '-0',
      '+5',
      '1e2',
      '0x10',
      '5.0',
      '5.',
      ' 5',
      '5 ',
      'ten',
      '１０',
      'Infinity',
      'NaN',
      '99999999999999999999999',
    ])("rejects %j with Invalid 'limit' value.", (raw) => {
      const error = queryError(() => list(`limit=${encodeURIComponent(raw)}`));
      expect(error.message).toBe("Invalid 'limit' value.");
      expect(error.parameter).toBe('limit');
    });
  });

  describe('offset', () => {
    it('accepts 0 up to 1,000,000', () => {
      expect(list('offset=0').offset).toBe(0);
      expect(list('offset=990').offset).toBe(990);
      expect(list('offset=1000000').offset).toBe(1_000_000);
    });

    it.each(['1000001', '-1', '-0', '1e3', '0x10', '1.5', ' 1', 'x'])(
      "rejects %j with Invalid 'offset' value.",
      (raw) => {
        expect(queryError(() => list(`offset=${encodeURIComponent(raw)}`)).message).toBe(
          "Invalid 'offset' value.",
        );
      },
    );
  });

  describe('depth', () => {
    it('accepts 0 to 3', () => {
      expect([0, 1, 2, 3].map((depth) => list(`depth=${depth}`).depth)).toEqual([0, 1, 2, 3]);
    });

    it.each(['4', '-1', '1.0', 'deep', '1e0'])('rejects %j', (raw) => {
      expect(queryError(() => list(`depth=${raw}`)).message).toBe('invalid parameter.');
    });
  });

  describe('orders', () => {
    it('parses up to 5 keys with directions, dot paths and system:default', () => {
      expect(list('orders=-updatedAt,createdAt,seo.rank,-a_b-c,system:default').orders).toEqual([
        { field: 'updatedAt', direction: 'desc' },
        { field: 'createdAt', direction: 'asc' },
        { field: 'seo.rank', direction: 'asc' },
        { field: 'a_b-c', direction: 'desc' },
        { field: 'system:default', direction: 'asc' },
      ]);
    });

    it.each([
      'a,b,c,d,e,f',
      '-',
      '--title',
      '+title',
      'title,',
      ',title',
      'a,,b',
      'a, b',
      'title desc',
      'a..b',
      '-system:default',
      'system:other',
      'タイトル',
    ])('rejects %j', (raw) => {
      expect(queryError(() => list(`orders=${encodeURIComponent(raw)}`)).message).toBe(
        'invalid parameter.',
      );
    });
  });

  describe('fields', () => {
    it('splits dot paths', () => {
      expect(list('fields=title,author.organization.name').fields).toEqual([
        ['title'],
        ['author', 'organization', 'name'],
      ]);
    });

    it('accepts 100 fields but not 101', () => {
      const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`).join(',');
      expect(list(`fields=${fields(100)}`).fields).toHaveLength(100);
      expect(queryError(() => list(`fields=${fields(101)}`)).message).toBe('invalid parameter.');
    });

    it('takes a leading hyphen as part of the name, as filters do', () => {
      expect(list('fields=-title').fields).toEqual([['-title']]);
    });

    it.each(['title,', 'a,,b', 'a.', '.a', 'a b', '*', 'author.*', 'タイトル'])(
      'rejects %j',
      (raw) => {
        expect(queryError(() => list(`fields=${encodeURIComponent(raw)}`)).message).toBe(
          'invalid parameter.',
        );
      },
    );
  });

  describe('ids', () => {
    it('accepts up to 1000 ids of 1 to 50 characters', () => {
      const ids = Array.from({ length: 1000 }, (_, i) => `id_${i}`);
      expect(list(`ids=${ids.join(',')}`).ids).toEqual(ids);
      expect(list(`ids=${'x'.repeat(50)}`).ids).toEqual(['x'.repeat(50)]);
    });

    it.each([
      Array.from({ length: 1001 }, (_, i) => `id${i}`).join(','),
      'x'.repeat(51),
      'a,',
      'a,,b',
      'a b',
      'a/b',
      'a.b',
      'コンテンツ',
    ])('rejects %j', (raw) => {
      expect(queryError(() => list(`ids=${encodeURIComponent(raw)}`)).message).toBe(
        'invalid parameter.',
      );
    });
  });

  describe('q', () => {
    it('trims and treats a blank q as absent', () => {
      expect(list('q=%E3%80%80建築%20').q).toBe('建築');
      expect(list('q=%20%20').q).toBeUndefined();
    });

    it('allows 200 characters, counted in code points', () => {
      expect(list(`q=${encodeURIComponent('建'.repeat(200))}`).q).toHaveLength(200);
      expect(list(`q=${encodeURIComponent('🎨'.repeat(200))}`).q).toHaveLength(400);
      expect(queryError(() => list(`q=${'a'.repeat(201)}`)).message).toBe('invalid parameter.');
    });
  });

  describe('filters', () => {
    it('parses filters', () => {
      expect(list(`filters=${encodeURIComponent('a[exists][or]b[not_exists]')}`).filters).toEqual({
        kind: 'or',
        children: [
          { kind: 'condition', field: 'a', operator: 'exists', value: '' },
          { kind: 'condition', field: 'b', operator: 'not_exists', value: '' },
        ],
      });
    });

    it('turns a syntax error into invalid parameter. and keeps the cause', () => {
      const error = queryError(() => list('filters=title[like]x'));
      expect(error.message).toBe('invalid parameter.');
      expect(error.parameter).toBe('filters');
      expect(error.cause).toBeInstanceOf(FilterSyntaxError);
    });
  });

  describe('draftKey and richEditorFormat', () => {
    it('accepts a draft key up to 100 characters', () => {
      expect(list(`draftKey=${'k'.repeat(100)}`).draftKey).toBe('k'.repeat(100));
      expect(queryError(() => list(`draftKey=${'k'.repeat(101)}`)).message).toBe(
        'invalid parameter.',
      );
    });

    it('accepts html and object only', () => {
      expect(list('richEditorFormat=html').richEditorFormat).toBe('html');
      expect(list('richEditorFormat=object').richEditorFormat).toBe('object');
      for (const raw of ['HTML', 'json', 'markdown']) {
        expect(queryError(() => list(`richEditorFormat=${raw}`)).message).toBe(
          'invalid parameter.',
        );
      }
    });
  });

  describe('repeated parameters', () => {
    it('accepts repeats of the same value and ignores empty repeats', () => {
      expect(list('limit=5&limit=5').limit).toBe(5);
      expect(list('limit=&limit=5').limit).toBe(5);
    });

    it('rejects conflicting values with the parameter’s own message', () => {
      expect(queryError(() => list('limit=5&limit=6')).message).toBe("Invalid 'limit' value.");
      expect(queryError(() => list('offset=5&offset=6')).message).toBe("Invalid 'offset' value.");
      expect(queryError(() => list('orders=a&orders=b')).message).toBe('invalid parameter.');
    });
  });
});

describe('parseDetailQuery', () => {
  it('reads only draftKey, fields, depth and richEditorFormat', () => {
    expect(
      detail(
        'draftKey=dk&fields=id,title&depth=0&richEditorFormat=object&limit=abc&offset=-1&filters=((&ids=,&q=x',
      ),
    ).toEqual({
      draftKey: 'dk',
      fields: [['id'], ['title']],
      depth: 0,
      richEditorFormat: 'object',
    });
  });

  it('returns the defaults for an empty query', () => {
    const query = detail('depth=&fields=&draftKey=');
    expect(query).toEqual({ depth: 1, richEditorFormat: 'html' });
    expect(query.fields).toBeUndefined();
    expect(query.draftKey).toBeUndefined();
  });

  it('rejects bad values', () => {
    expect(queryError(() => detail('depth=4')).message).toBe('invalid parameter.');
    expect(queryError(() => detail('fields=a,')).message).toBe('invalid parameter.');
  });
});
