import { describe, expect, it } from 'vitest';
import { foreignKeyOrder } from './catalog';

describe('the order a restore inserts tables in', () => {
  it('puts every table after the tables it references, ties by name', () => {
    const links = [
      { child: 'account', parent: 'user' },
      { child: 'subscriptions', parent: 'user_public_profiles' },
      { child: 'user_public_profiles', parent: 'user' },
    ];
    expect(
      foreignKeyOrder(['subscriptions', 'account', 'user_public_profiles', 'user', 'audit'], links),
    ).toEqual(['audit', 'user', 'account', 'user_public_profiles', 'subscriptions']);
  });

  it('accepts a table that references itself', () => {
    expect(foreignKeyOrder(['tree'], [{ child: 'tree', parent: 'tree' }])).toEqual(['tree']);
  });

  it('fails loudly on a cycle between tables, naming them', () => {
    expect(() =>
      foreignKeyOrder(
        ['a', 'b', 'c'],
        [
          { child: 'a', parent: 'b' },
          { child: 'b', parent: 'a' },
        ],
      ),
    ).toThrow('foreign keys form a cycle between tables: a, b');
  });
});
