import { mulberry32 } from '@test-support/seeded-random';
import {
  FILTER_OPERATORS,
  FilterSyntaxError,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_DEPTH,
  MAX_FILTER_LENGTH,
  type FilterCondition,
  type FilterNode,
  type FilterOperator,
  parseFilters,
} from './filters';

function cond(field: string, operator: FilterOperator, value = ''): FilterCondition {
  return { kind: 'condition', field, operator, value };
}
const and = (...children: FilterNode[]): FilterNode => ({ kind: 'and', children });
const or = (...children: FilterNode[]): FilterNode => ({ kind: 'or', children });

function syntaxError(input: string): FilterSyntaxError {
  try {
    parseFilters(input);
  } catch (error) {
    if (error instanceof FilterSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected a FilterSyntaxError for ${JSON.stringify(input)}`);
}

describe('parseFilters', () => {
  it('parses the example from the microCMS docs', () => {
    expect(
      parseFilters(
        'category[equals]engineering[and](date[begins_with]2019-11-14[or]title[exists])',
      ),
    ).toEqual(
      and(
        cond('category', 'equals', 'engineering'),
        or(cond('date', 'begins_with', '2019-11-14'), cond('title', 'exists')),
      ),
    );
  });

  it('returns a bare condition for a single condition', () => {
    expect(parseFilters('title[contains]おすすめ')).toEqual(cond('title', 'contains', 'おすすめ'));
  });

  it.each(FILTER_OPERATORS.filter((op) => op !== 'exists' && op !== 'not_exists'))(
    'accepts the %s operator',
    (operator) => {
      expect(parseFilters(`field[${operator}]42`)).toEqual(cond('field', operator, '42'));
    },
  );

  it('accepts dot paths, digits, hyphens and underscores in field names', () => {
    expect(parseFilters('seo.meta_title-2[equals]x')).toEqual(
      cond('seo.meta_title-2', 'equals', 'x'),
    );
    expect(parseFilters('repeat.custom.inner[contains]v')).toEqual(
      cond('repeat.custom.inner', 'contains', 'v'),
    );
  });

  describe('precedence and normalisation', () => {
    it('binds [and] tighter than [or]', () => {
      expect(parseFilters('a[exists][or]b[exists][and]c[exists]')).toEqual(
        or(cond('a', 'exists'), and(cond('b', 'exists'), cond('c', 'exists'))),
      );
      expect(parseFilters('a[exists][and]b[exists][or]c[exists]')).toEqual(
        or(and(cond('a', 'exists'), cond('b', 'exists')), cond('c', 'exists')),
      );
    });

    it('lets parentheses override precedence', () => {
      expect(parseFilters('(a[exists][or]b[exists])[and]c[exists]')).toEqual(
        and(or(cond('a', 'exists'), cond('b', 'exists')), cond('c', 'exists')),
      );
    });

    it('flattens nested groups of the same kind', () => {
      const flat = and(cond('a', 'exists'), cond('b', 'exists'), cond('c', 'exists'));
      expect(parseFilters('a[exists][and](b[exists][and]c[exists])')).toEqual(flat);
      expect(parseFilters('(a[exists][and]b[exists])[and]c[exists]')).toEqual(flat);
      expect(parseFilters('((a[exists]))[and]((b[exists][and]((c[exists]))))')).toEqual(flat);
      expect(parseFilters('a[exists][or](b[exists][or](c[exists][or]d[exists]))')).toEqual(
        or(cond('a', 'exists'), cond('b', 'exists'), cond('c', 'exists'), cond('d', 'exists')),
      );
    });

    it('unwraps a group with a single condition', () => {
      expect(parseFilters('(((title[exists])))')).toEqual(cond('title', 'exists'));
    });
  });

  describe('values', () => {
    it('runs a value until [and], [or] or the end', () => {
      expect(parseFilters('t[equals]a b[and]u[equals]c')).toEqual(
        and(cond('t', 'equals', 'a b'), cond('u', 'equals', 'c')),
      );
    });

    it('keeps brackets, operator names and other-case joiners literally', () => {
      expect(parseFilters('t[equals]a[b]c')).toEqual(cond('t', 'equals', 'a[b]c'));
      expect(parseFilters('t[equals]x[equals]y')).toEqual(cond('t', 'equals', 'x[equals]y'));
      expect(parseFilters('t[equals]x[AND]u[exists]')).toEqual(
        cond('t', 'equals', 'x[AND]u[exists]'),
      );
      expect(parseFilters('t[equals]and[or]u[equals]or')).toEqual(
        or(cond('t', 'equals', 'and'), cond('u', 'equals', 'or')),
      );
    });

    it("treats ')' outside any group as part of the value", () => {
      expect(parseFilters('title[equals]AXIS (2026)')).toEqual(
        cond('title', 'equals', 'AXIS (2026)'),
      );
      expect(parseFilters('t[contains]a)b[or]u[contains]))')).toEqual(
        or(cond('t', 'contains', 'a)b'), cond('u', 'contains', '))')),
      );
    });

    it("ends a value at the ')' that closes an open group", () => {
      expect(parseFilters('(t[equals]a(b)[or]u[exists]')).toEqual(
        or(cond('t', 'equals', 'a(b'), cond('u', 'exists')),
      );
      // So a value with ')' cannot be written inside a group: the group ends early.
      expect(() => parseFilters('(t[equals]a(b)[or]u[exists])')).toThrow(FilterSyntaxError);
      expect(parseFilters('(t[equals]x)[and]u[equals]y)')).toEqual(
        and(cond('t', 'equals', 'x'), cond('u', 'equals', 'y)')),
      );
    });

    it('keeps whitespace and Japanese text as given', () => {
      expect(parseFilters('title[contains] デザイン 展 ')).toEqual(
        cond('title', 'contains', ' デザイン 展 '),
      );
    });

    it('accepts an empty value for equality, containment and prefix operators', () => {
      for (const operator of [
        'equals',
        'not_equals',
        'contains',
        'not_contains',
        'begins_with',
      ] as const) {
        expect(parseFilters(`t[${operator}]`)).toEqual(cond('t', operator, ''));
      }
      expect(parseFilters('(t[equals])[or]u[equals][and]v[exists]')).toEqual(
        or(cond('t', 'equals'), and(cond('u', 'equals'), cond('v', 'exists'))),
      );
    });

    it('requires a value for less_than and greater_than', () => {
      expect(syntaxError('n[less_than]').message).toMatch(/needs a value/);
      expect(syntaxError('(n[greater_than])').message).toMatch(/needs a value/);
      expect(syntaxError('n[greater_than][and]m[exists]').message).toMatch(/needs a value/);
    });

    it('rejects a value after exists and not_exists', () => {
      expect(syntaxError('t[exists]true').message).toMatch(/takes no value/);
      expect(syntaxError('t[not_exists] ').message).toMatch(/takes no value/);
      expect(syntaxError('t[exists])').message).toMatch(/unbalanced/);
    });
  });

  describe('errors', () => {
    it.each([
      ['empty input', ''],
      ['unknown operator', 'title[like]x'],
      ['upper-case operator', 'title[EQUALS]x'],
      ['unterminated operator', 'title[equals'],
      ['field without operator', 'title'],
      ['missing field', '[equals]x'],
      ['field with a space', 'my title[equals]x'],
      ['leading space', ' title[equals]x'],
      ['Japanese field', 'タイトル[equals]x'],
      ['empty path segment', 'a..b[equals]x'],
      ['trailing dot', 'a.[equals]x'],
      ['leading dot', '.a[equals]x'],
      ['unclosed group', '(a[exists]'],
      ['unclosed nested group', '((a[exists])[or]b[exists]'],
      ['value swallows the closing parenthesis', '(a[equals]x'],
      ['unopened group after group', '(a[exists]))'],
      ['empty group', '()'],
      ['empty nested group', 'a[exists][and](())'],
      ['dangling [and]', 'a[exists][and]'],
      ['dangling [or]', 'a[exists][or]'],
      ['leading [and]', '[and]a[exists]'],
      ['double joiner', 'a[exists][and][or]b[exists]'],
      ['dangling [and] in a group', '(a[exists][and])'],
      ['text after a group', '(a[exists])b[exists]'],
      ['group after a value-less condition', 'a[exists](b[exists])'],
      ['bare parenthesis', ')'],
      ['bare joiner', '[or]'],
    ])('rejects %s', (_label, input) => {
      expect(() => parseFilters(input)).toThrow(FilterSyntaxError);
    });

    it('reports where the problem is', () => {
      const error = syntaxError('a[exists][and]b[nope]x');
      expect(error.position).toBe(15);
      expect(error.name).toBe('FilterSyntaxError');
    });

    it(`allows ${MAX_FILTER_DEPTH} nested groups but not more`, () => {
      const nested = (depth: number) => '('.repeat(depth) + 'a[exists]' + ')'.repeat(depth);
      expect(parseFilters(nested(MAX_FILTER_DEPTH))).toEqual(cond('a', 'exists'));
      expect(syntaxError(nested(MAX_FILTER_DEPTH + 1)).message).toMatch(/nested/);
      expect(() => parseFilters('('.repeat(4000))).toThrow(FilterSyntaxError);
    });

    it(`allows ${MAX_FILTER_CONDITIONS} conditions but not more`, () => {
      const conditions = (n: number) =>
        Array.from({ length: n }, (_, i) => `f${i}[equals]${i}`).join('[or]');
      const tree = parseFilters(conditions(MAX_FILTER_CONDITIONS));
      expect(tree.kind === 'or' && tree.children.length).toBe(MAX_FILTER_CONDITIONS);
      expect(syntaxError(conditions(MAX_FILTER_CONDITIONS + 1)).message).toMatch(/conditions/);
    });

    it(`allows ${MAX_FILTER_LENGTH} characters but not more`, () => {
      const prefix = 'title[contains]';
      const atLimit = prefix + 'x'.repeat(MAX_FILTER_LENGTH - prefix.length);
      expect(parseFilters(atLimit)).toEqual(
        cond('title', 'contains', 'x'.repeat(MAX_FILTER_LENGTH - prefix.length)),
      );
      expect(syntaxError(atLimit + 'x').message).toMatch(/longer/);
      expect(() => parseFilters('('.repeat(1_000_000))).toThrow(FilterSyntaxError);
    });
  });

  describe('properties', () => {
    const FIELD = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

    function assertWellFormed(node: FilterNode, parentKind?: 'and' | 'or'): number {
      if (node.kind === 'condition') {
        expect(node.field).toMatch(FIELD);
        expect(FILTER_OPERATORS).toContain(node.operator);
        if (node.operator === 'exists' || node.operator === 'not_exists') {
          expect(node.value).toBe('');
        }
        expect(node.value).not.toContain('[and]');
        expect(node.value).not.toContain('[or]');
        return 1;
      }
      expect(node.kind).not.toBe(parentKind);
      expect(node.children.length).toBeGreaterThanOrEqual(2);
      return node.children.reduce((sum, child) => sum + assertWellFormed(child, node.kind), 0);
    }

    it('throws only FilterSyntaxError or returns a well-formed tree for random input', () => {
      const random = mulberry32(20260101);
      const pieces = [
        '[',
        ']',
        '(',
        ')',
        '((',
        '))',
        'and',
        'or',
        '[and]',
        '[or]',
        '[AND]',
        'a',
        'Z',
        'title',
        'x9',
        '_',
        '-',
        '.',
        ' ',
        '　',
        '建築',
        'デザイン',
        'ｶﾀｶﾅ',
        '🎨',
        '\uD800',
        ...FILTER_OPERATORS,
        ...FILTER_OPERATORS.map((op) => `[${op}]`),
      ];
      const pick = () => pieces[Math.floor(random() * pieces.length)] ?? '';
      let parsed = 0;
      for (let i = 0; i < 5000; i++) {
        // Mostly short strings, with some long enough to hit the depth, count and length caps.
        const length =
          random() < 0.03 ? 500 + Math.floor(random() * 3000) : 1 + Math.floor(random() * 40);
        let input = '';
        for (let j = 0; j < length; j++) input += pick();
        let tree: FilterNode;
        try {
          tree = parseFilters(input);
        } catch (error) {
          if (!(error instanceof FilterSyntaxError)) {
            throw new Error(`non-syntax error for ${JSON.stringify(input)}: ${String(error)}`);
          }
          continue;
        }
        parsed++;
        expect(assertWellFormed(tree)).toBeLessThanOrEqual(MAX_FILTER_CONDITIONS);
      }
      // The generator must actually reach the success path, or the test proves little.
      expect(parsed).toBeGreaterThan(50);
    });

    it('round-trips random well-formed trees rendered to strings', () => {
      const random = mulberry32(42);
      const int = (n: number) => Math.floor(random() * n);
      const oneOf = <T>(items: readonly T[]): T => items[int(items.length)] as T;
      const fieldChars = 'abcXYZ019_-';
      const valuePieces = [
        'a',
        'z',
        '0',
        '9',
        ' ',
        '-',
        ':',
        '.',
        ',',
        '(',
        '[',
        ']',
        'and',
        'or',
        '[AND]',
        '[equals]',
        '建築',
        'デザイン',
        'ｶﾀｶﾅ',
        '２０２６',
        '🎨',
      ];

      const segment = () =>
        Array.from({ length: 1 + int(6) }, () => oneOf([...fieldChars])).join('');
      const field = () => Array.from({ length: 1 + int(3) }, segment).join('.');

      function value(operator: FilterOperator, atTopLevel: boolean): string {
        if (operator === 'exists' || operator === 'not_exists') return '';
        const pieces = atTopLevel ? [...valuePieces, ')'] : valuePieces;
        const min = operator === 'less_than' || operator === 'greater_than' ? 1 : 0;
        for (;;) {
          const v = Array.from({ length: min + int(8) }, () => oneOf(pieces)).join('');
          if (!v.includes('[and]') && !v.includes('[or]')) return v;
        }
      }

      // Values are filled in while rendering, because whether a value may contain ')' depends
      // on the group depth it ends up at.
      function tree(depth: number): FilterNode {
        if (depth >= 4 || random() < 0.4) return cond(field(), oneOf(FILTER_OPERATORS));
        const kind = random() < 0.5 ? 'and' : 'or';
        const children: FilterNode[] = [];
        const count = 2 + int(3);
        while (children.length < count) {
          const child = tree(depth + 1);
          // Keep the tree normalised: a same-kind child would be flattened by the parser.
          if (child.kind !== kind) children.push(child);
        }
        return { kind, children };
      }

      function render(node: FilterNode, parens: number): string {
        if (node.kind === 'condition') {
          node.value = value(node.operator, parens === 0);
          return `${node.field}[${node.operator}]${node.value}`;
        }
        const joiner = node.kind === 'and' ? '[and]' : '[or]';
        return node.children
          .map((child) => {
            // An [or] inside [and] needs parentheses; anything else gets them at random.
            const wrap = (node.kind === 'and' && child.kind === 'or') || random() < 0.2;
            return wrap ? `(${render(child, parens + 1)})` : render(child, parens);
          })
          .join(joiner);
      }

      for (let i = 0; i < 2000; i++) {
        const expected = tree(0);
        const input = random() < 0.1 ? `(${render(expected, 1)})` : render(expected, 0);
        let actual: FilterNode;
        try {
          actual = parseFilters(input);
        } catch (error) {
          throw new Error(`failed to parse ${JSON.stringify(input)}: ${String(error)}`);
        }
        expect(actual, input).toEqual(expected);
      }
    });
  });
});
