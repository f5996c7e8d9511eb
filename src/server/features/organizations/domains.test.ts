import { describe, expect, it } from 'vitest';
import { addressDomain, normalizeAllowedDomain } from './domains';

describe('an address at an allowed domain', () => {
  const allowed = normalizeAllowedDomain('corp.example');

  it('is the whole domain after the last @, without case', () => {
    expect(addressDomain('taro@corp.example')).toBe(allowed);
    expect(addressDomain('Taro@CORP.Example')).toBe(allowed);
    expect(addressDomain('"a@b"@corp.example')).toBe(allowed);
  });

  it('is never a look-alike', () => {
    for (const address of [
      'taro@corp.example.evil',
      'taro@evilcorp.example',
      'taro@mail.corp.example',
      'taro@corp.example.',
      'taro@corp-example',
      'taro@ｃｏｒｐ.example', // full width: IDNA would map it onto corp.example
      'taro@сorp.example', // Cyrillic с
      'taro@xn--orp-qdd.example',
      'corp.example@evil.example',
      'taro@',
      '@corp.example',
    ]) {
      expect(addressDomain(address), address).not.toBe(allowed);
    }
  });

  it('reads an IDN in its punycode or its canonical Unicode, the same', () => {
    const idn = normalizeAllowedDomain('日本語.jp');
    expect(idn).toBe('xn--wgv71a119e.jp');
    expect(normalizeAllowedDomain('XN--WGV71A119E.JP')).toBe(idn);
    expect(addressDomain('hanako@日本語.jp')).toBe(idn);
    expect(addressDomain('hanako@xn--wgv71a119e.jp')).toBe(idn);
    expect(addressDomain('hanako@日本語．jp')).toBeNull(); // a full-width dot
  });

  it('refuses what is not a domain', () => {
    for (const typed of ['', 'corp', 'corp..example', '-corp.example', 'corp.example/x', 'a b.jp'])
      expect(normalizeAllowedDomain(typed), typed).toBeNull();
    expect(normalizeAllowedDomain(' @Corp.Example ')).toBe('corp.example');
  });
});
