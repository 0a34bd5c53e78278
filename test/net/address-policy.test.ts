import { describe, expect, it } from 'vitest';
import { isAllowedAddress, isPublicAddress, parseAllowedAddresses } from '../../src/net/address-policy.ts';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '198.18.0.1',
    '192.0.2.1',
    '224.0.0.1',
    '255.255.255.255',
    '240.0.0.1',
    '::',
    '::1',
    'fe80::1',
    'fd00::1',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    // IPv4-compatible (deprecated) forms: ipaddr.js calls these "unicast"; we must not.
    '::127.0.0.1',
    '::7f00:1',
    '::169.254.169.254',
    '::a9fe:a9fe',
    '2002:a9fe:a9fe::1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::1',
    '2001:db8::1',
    '2001::1',
    '100::1',
    // Not addresses at all, or legacy short forms that only a URL parser may canonicalise.
    'localhost',
    '',
    '127.1',
    '2130706433',
    '0x7f000001',
    '[::1]',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700::1111', '2a00:1450:400f:80d::200e', '::ffff:8.8.8.8'])(
    'accepts %s',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );
});

describe('isAllowedAddress', () => {
  const strict = { allowPrivate: false, allowedAddresses: [] };
  const lax = { allowPrivate: true, allowedAddresses: [] };

  it('allows private ranges only with allowPrivate', () => {
    expect(isAllowedAddress('127.0.0.1', strict)).toBe(false);
    expect(isAllowedAddress('127.0.0.1', lax)).toBe(true);
    expect(isAllowedAddress('::1', lax)).toBe(true);
    expect(isAllowedAddress('10.1.2.3', lax)).toBe(true);
  });

  it('never allows unspecified, multicast or broadcast', () => {
    for (const ip of ['0.0.0.0', '::', '224.0.0.1', 'ff02::1', '255.255.255.255']) {
      expect(isAllowedAddress(ip, lax)).toBe(false);
    }
  });

  it('allows exactly the listed addresses and CIDRs', () => {
    const policy = {
      allowPrivate: false,
      allowedAddresses: parseAllowedAddresses(['127.0.0.2', '10.9.0.0/16', 'fd00::/8']),
    };
    expect(isAllowedAddress('127.0.0.2', policy)).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.2', policy)).toBe(true);
    expect(isAllowedAddress('127.0.0.1', policy)).toBe(false);
    expect(isAllowedAddress('10.9.200.1', policy)).toBe(true);
    expect(isAllowedAddress('10.10.0.1', policy)).toBe(false);
    expect(isAllowedAddress('fd12::1', policy)).toBe(true);
    expect(isAllowedAddress('8.8.8.8', policy)).toBe(true);
  });

  it('rejects a malformed allow-list entry', () => {
    expect(() => parseAllowedAddresses(['not-an-ip'])).toThrow(/not-an-ip/);
  });
});
