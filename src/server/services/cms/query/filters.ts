import 'server-only';
import { AppError } from '@/lib/errors';

/**
 * Parser for the microCMS `filters` query parameter, e.g.
 * `category[equals]engineering[and](date[begins_with]2019-11-14[or]title[exists])`.
 *
 * Rules where microCMS is silent or ambiguous (https://document.microcms.io/content-api/get-list-contents):
 * - `[and]` binds tighter than `[or]`: `a[or]b[and]c` is `a OR (b AND c)`, as in SQL.
 *   microCMS does not document precedence, so clients that care use parentheses anyway.
 * - Values cannot be escaped. A value runs until the next `[and]` or `[or]`, or until a `)`
 *   while a group is open (that `)` closes the group), or the end of the input. Outside any
 *   group a `)` is an ordinary character of the value, so `title[equals]AXIS (2026)` works;
 *   inside a group the same value cannot be written. Everything else (`(`, `[`, `]`, `[AND]`,
 *   `[equals]`, spaces) is taken literally as part of the value.
 * - `exists` / `not_exists` take no value. `less_than` / `greater_than` need one, because an
 *   empty bound orders nothing. The other operators accept an empty value, compared literally:
 *   `title[equals]` matches an empty string, `title[contains]` and `title[begins_with]` match
 *   every string value.
 * - Names are case-sensitive: `[EQUALS]` is an unknown operator and `[AND]` is part of a value.
 * - The tree is normalised: a group with one child is that child and nested same-kind nodes
 *   are flattened, so `a[and](b[and]c)` and `(a[and]b)[and]c` give the same tree.
 *
 * Every malformed input throws FilterSyntaxError and nothing else; the HTTP layer answers it
 * with 400 `invalid parameter.`. The size limits keep that true for hostile input: recursion
 * is bounded by the nesting limit and all scanning is linear.
 */

export const FILTER_OPERATORS = [
  'equals',
  'not_equals',
  'less_than',
  'greater_than',
  'contains',
  'not_contains',
  'exists',
  'not_exists',
  'begins_with',
] as const;

export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FilterCondition = {
  kind: 'condition';
  field: string;
  operator: FilterOperator;
  value: string;
};

// Two group members rather than one with `kind: 'and' | 'or'`, so that checking `kind`
// narrows a node to a condition.
export type FilterGroup =
  { kind: 'and'; children: FilterNode[] } | { kind: 'or'; children: FilterNode[] };

export type FilterNode = FilterCondition | FilterGroup;

export const MAX_FILTER_LENGTH = 4096;
export const MAX_FILTER_DEPTH = 10;
export const MAX_FILTER_CONDITIONS = 100;

/** A `filters` value that does not parse: the content API answers it as a bad query. */
export class FilterSyntaxError extends AppError {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} (at ${position})`, { status: 400, code: 'invalid-filter', expose: false });
    this.name = 'FilterSyntaxError';
  }
}

const AND = '[and]';
const OR = '[or]';
const FIELD = /[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*/y;
const OPERATOR_NAME = /\[([a-z_]{1,20})\]/y;
const OPERATORS: ReadonlySet<string> = new Set(FILTER_OPERATORS);
const VALUELESS: ReadonlySet<FilterOperator> = new Set(['exists', 'not_exists']);
const VALUE_REQUIRED: ReadonlySet<FilterOperator> = new Set(['less_than', 'greater_than']);

export function isFilterOperator(name: string): name is FilterOperator {
  return OPERATORS.has(name);
}

export function parseFilters(input: string): FilterNode {
  if (input.length > MAX_FILTER_LENGTH) {
    throw new FilterSyntaxError(`filters is longer than ${MAX_FILTER_LENGTH} characters`, 0);
  }
  if (input.length === 0) throw new FilterSyntaxError('filters is empty', 0);
  const parser = new Parser(input);
  const tree = parser.parseOr();
  parser.expectEnd();
  return tree;
}

class Parser {
  private pos = 0;
  private depth = 0;
  private conditions = 0;

  constructor(private readonly input: string) {}

  parseOr(): FilterNode {
    return this.parseJoined('or', OR, () => this.parseAnd());
  }

  expectEnd(): void {
    if (this.pos === this.input.length) return;
    if (this.input[this.pos] === ')') throw this.error("unbalanced ')'");
    throw this.error("expected '[and]', '[or]' or the end after ')'");
  }

  private parseAnd(): FilterNode {
    return this.parseJoined('and', AND, () => this.parseTerm());
  }

  /** Operands joined by `[and]` or `[or]` (the separator, as written). */
  private parseJoined(
    kind: 'and' | 'or',
    separator: string,
    operand: () => FilterNode,
  ): FilterNode {
    const children = [operand()];
    while (this.input.startsWith(separator, this.pos)) {
      this.pos += separator.length;
      this.assertOperand(separator);
      children.push(operand());
    }
    return combine(kind, children);
  }

  private parseTerm(): FilterNode {
    if (this.input[this.pos] !== '(') return this.parseCondition();
    if (this.depth === MAX_FILTER_DEPTH) {
      throw this.error(`more than ${MAX_FILTER_DEPTH} nested groups`);
    }
    this.depth++;
    this.pos++;
    if (this.input[this.pos] === ')') throw this.error('empty group');
    const node = this.parseOr();
    if (this.input[this.pos] !== ')') {
      throw this.error(this.pos === this.input.length ? "missing ')'" : "expected ')'");
    }
    this.pos++;
    this.depth--;
    return node;
  }

  private parseCondition(): FilterCondition {
    const start = this.pos;
    FIELD.lastIndex = start;
    const field = FIELD.exec(this.input)?.[0];
    if (field === undefined) throw this.error('missing field name');
    this.pos += field.length;

    OPERATOR_NAME.lastIndex = this.pos;
    const name = OPERATOR_NAME.exec(this.input)?.[1];
    if (name === undefined) {
      throw this.error(
        this.input[this.pos] === '['
          ? 'unknown operator'
          : `expected '[operator]' after field '${field}'`,
      );
    }
    if (!isFilterOperator(name)) throw this.error(`unknown operator '${name}'`);
    this.pos += name.length + 2;

    const valueStart = this.pos;
    const value = this.input.slice(valueStart, this.valueEnd());
    this.pos += value.length;
    if (VALUELESS.has(name) && value !== '') {
      if (value.startsWith(')')) throw new FilterSyntaxError("unbalanced ')'", valueStart);
      throw new FilterSyntaxError(`operator '${name}' takes no value`, valueStart);
    }
    if (VALUE_REQUIRED.has(name) && value === '') {
      throw new FilterSyntaxError(`operator '${name}' needs a value`, valueStart);
    }

    this.conditions++;
    if (this.conditions > MAX_FILTER_CONDITIONS) {
      throw new FilterSyntaxError(`more than ${MAX_FILTER_CONDITIONS} conditions`, start);
    }
    return { kind: 'condition', field, operator: name, value };
  }

  private valueEnd(): number {
    const { input, pos } = this;
    let end = input.length;
    for (const stop of [AND, OR, ...(this.depth > 0 ? [')'] : [])]) {
      const at = input.indexOf(stop, pos);
      if (at !== -1 && at < end) end = at;
    }
    return end;
  }

  private assertOperand(joiner: string): void {
    if (this.pos === this.input.length || this.input[this.pos] === ')') {
      throw this.error(`'${joiner}' without a condition after it`);
    }
  }

  private error(message: string): FilterSyntaxError {
    return new FilterSyntaxError(message, this.pos);
  }
}

function combine(kind: 'and' | 'or', nodes: FilterNode[]): FilterNode {
  const [first] = nodes;
  if (nodes.length === 1 && first) return first;
  const children: FilterNode[] = [];
  for (const node of nodes) {
    if (node.kind === kind) children.push(...node.children);
    else children.push(node);
  }
  return { kind, children };
}
