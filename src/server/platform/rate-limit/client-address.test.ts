import { describe, expect, it } from 'vitest';
import { UNKNOWN_ADDRESS, addressKey, clientAddress } from './client-address';

describe('addressKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey(' 203.0.113.7 ')).toBe('203.0.113.7');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('groups an IPv6 address by its /64 network', () => {
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff::9')).toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('2001:db8::1')).toBe('2001:db8::/64');
    expect(addressKey('::1')).toBe('::/64');
  });

  it('ignores a zone id', () => {
    expect(addressKey('fe80::1%eth0')).toBe('fe80::/64');
    expect(addressKey('fe80::1%eth0')).toBe(addressKey('fe80::2'));
  });

  it('puts anything unreadable in one bucket', () => {
    for (const garbage of [
      '',
      'unknown',
      'not an address',
      '203.0.113',
      '0x7f.1',
      '127.1',
      '256.1.1.1',
      '2001:db8::1::2',
      '2001:db8:1:2:3:4:5:6:7',
      '203.0.113.7, 198.51.100.1',
      '[2001:db8::1]:443',
      '203.0.113.7/24',
    ]) {
      expect(addressKey(garbage), garbage).toBe(UNKNOWN_ADDRESS);
    }
  });

  it('answers null when no address was given (limits by address are then off)', () => {
    expect(addressKey(null)).toBeNull();
    expect(addressKey(undefined)).toBeNull();
  });
});

describe('clientAddress', () => {
  const peer = (text: string) => clientAddress(text, undefined, false);

  it('gives each address one spelling, whichever way it was written', () => {
    const spellings = {
      '127.0.0.1': ['127.0.0.1', ' 127.0.0.1\t', '::ffff:127.0.0.1', '::FFFF:7f00:1'],
      '2001:db8::1': ['2001:db8::1', '2001:0DB8:0:0:0:0:0:0001', ' 2001:db8::1 '],
      'fe80::1': ['fe80::1', 'fe80::1%eth0', 'fe80::1%2'],
    };
    for (const [address, written] of Object.entries(spellings))
      for (const text of written) {
        expect(peer(text), text).toBe(address);
        // The front server's spelling and the limits' key agree with every other spelling's.
        expect(addressKey(peer(text)), text).toBe(addressKey(address));
        expect(addressKey(text), text).toBe(addressKey(address));
      }
  });

  it('reads what ipaddr.js cannot (brackets, ports, short IPv4, lists) as unknown', () => {
    for (const text of [
      '[2001:db8::1]',
      '[2001:db8::1]:443',
      '203.0.113.7:8080',
      '127.1',
      '0x7f.0.0.1',
      '::ffff:999.1.1.1',
      "1.1.1.1' OR 1=1--",
      '',
    ])
      expect(peer(text), text).toBe(UNKNOWN_ADDRESS);
    expect(clientAddress(undefined, undefined, true)).toBe(UNKNOWN_ADDRESS);
  });

  it('ignores X-Forwarded-For unless the proxy is trusted, and then takes only its last entry', () => {
    const forged = '198.51.100.1, 198.51.100.2';
    expect(clientAddress('203.0.113.7', forged, false)).toBe('203.0.113.7');
    expect(clientAddress('::ffff:10.0.0.2', `${forged}, 203.0.113.7`, true)).toBe('203.0.113.7');
    // Several header lines are one list; the proxy's entry is the last of the last line.
    expect(clientAddress('10.0.0.2', [forged, ' ::ffff:203.0.113.7 '], true)).toBe('203.0.113.7');
    // Behind the proxy its entry is read like any address: garbage shares the unknown bucket.
    expect(clientAddress('10.0.0.2', '203.0.113.7, [::1]', true)).toBe(UNKNOWN_ADDRESS);
    // A proxy that added nothing: the peer (the proxy itself), as before.
    expect(clientAddress('10.0.0.2', undefined, true)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', '198.51.100.1, ', true)).toBe('10.0.0.2');
  });
});
