import { describe, expect, it } from 'vitest';
import { StripeApiError } from './errors';
import { FORM_LIMITS, decodeStripeForm } from './form-body';
import { Params } from './params';

function refused(text: string): StripeApiError {
  try {
    decodeStripeForm(text);
  } catch (error) {
    if (error instanceof StripeApiError) return error;
    throw error;
  }
  throw new Error(`not refused: ${text}`);
}

describe('decodeStripeForm', () => {
  it('decodes flat, nested and indexed keys', () => {
    expect(
      decodeStripeForm(
        'name=A+b%20c&metadata[plan]=monthly&recurring[interval]=month&items[0][price]=p1&items[1][price]=p2',
      ),
    ).toEqual({
      name: 'A b c',
      metadata: { plan: 'monthly' },
      recurring: { interval: 'month' },
      items: { '0': { price: 'p1' }, '1': { price: 'p2' } },
    });
  });

  it('appends `[]` items in order and accepts encoded brackets', () => {
    expect(decodeStripeForm('expand[]=a&expand[]=b&expand%5B%5D=c')).toEqual({
      expand: { '0': 'a', '1': 'b', '2': 'c' },
    });
  });

  it('decodes Japanese text and empty values', () => {
    expect(decodeStripeForm(`name=${encodeURIComponent('月額プラン')}&description=&flag`)).toEqual({
      name: '月額プラン',
      description: '',
      flag: '',
    });
    expect(decodeStripeForm('')).toEqual({});
  });

  it('refuses malformed names, duplicates and value/hash clashes with 400s', () => {
    for (const text of [
      'a[b=1',
      'a]b[=1',
      '[a]=1',
      'a[b]c=1',
      'name=a&name=b',
      'a=1&a[b]=2',
      'a[b]=2&a=1',
      'a[__proto__][x]=1',
      '%E0%A4%A=1',
      'name=%00',
    ]) {
      const error = refused(text);
      expect(error.status, text).toBe(400);
      expect(error.type).toBe('invalid_request_error');
    }
  });

  it('bounds the number of pairs, the depth and the lengths', () => {
    const many = Array.from({ length: FORM_LIMITS.maxPairs + 1 }, (_, i) => `k${i}=1`).join('&');
    expect(refused(many).message).toMatch(/more than/);
    expect(decodeStripeForm('a[1][2][3][4][5]=x')).toBeTruthy();
    expect(refused('a[1][2][3][4][5][6]=x').message).toMatch(/nested too deeply/);
    expect(refused(`${'k'.repeat(FORM_LIMITS.maxKeyLength + 1)}=1`).status).toBe(400);
    expect(refused(`k=${'v'.repeat(FORM_LIMITS.maxValueLength + 1)}`).status).toBe(400);
  });

  it('does not touch Object.prototype', () => {
    decodeStripeForm('constructor[prototype][polluted]=1&toString=x');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('Params', () => {
  it('reads arrays in index order and refuses gaps', () => {
    const params = new Params(decodeStripeForm('lookup_keys[0]=a&lookup_keys[1]=b'));
    expect(params.stringArray('lookup_keys')).toEqual(['a', 'b']);
    const gap = new Params(decodeStripeForm('lookup_keys[0]=a&lookup_keys[2]=b'));
    expect(() => gap.stringArray('lookup_keys')).toThrow(StripeApiError);
  });

  it('merges metadata as Stripe does: empty value removes a key, empty hash clears', () => {
    const current = { keep: '1', drop: '2' };
    expect(
      new Params(decodeStripeForm('metadata[drop]=&metadata[new]=3')).metadata(current),
    ).toEqual({ keep: '1', new: '3' });
    expect(new Params(decodeStripeForm('metadata=')).metadata(current)).toEqual({});
    expect(new Params(decodeStripeForm('name=x')).metadata(current)).toBeUndefined();
  });

  it('refuses unknown parameters, also inside hashes', () => {
    const params = new Params(decodeStripeForm('name=x&nmae=y'));
    params.string('name');
    expect(() => params.finish()).toThrow('Received unknown parameter: nmae');
    const nested = new Params(decodeStripeForm('recurring[interval]=month&recurring[x]=1'));
    const recurring = nested.object('recurring');
    recurring?.string('interval');
    expect(() => nested.finish(recurring)).toThrow('Received unknown parameter: recurring[x]');
  });

  it('checks booleans and integer ranges', () => {
    const params = new Params(decodeStripeForm('a=true&b=yes&n=101&m=1.5'));
    expect(params.boolean('a')).toBe(true);
    expect(() => params.boolean('b')).toThrow('Invalid boolean');
    expect(() => params.integer('n', 1, 100)).toThrow('between 1 and 100');
    expect(() => params.integer('m', 1, 100)).toThrow('Invalid integer');
  });
});
