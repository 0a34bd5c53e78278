import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signupNetworkOf } from '../../src/domain/client-network.ts';

describe('signupNetworkOf', () => {
  it('counts an IPv4 client per address', () => {
    expect(signupNetworkOf('203.0.113.7')).toBe('203.0.113.7');
    expect(signupNetworkOf('203.0.113.8')).not.toBe(signupNetworkOf('203.0.113.7'));
  });

  it('counts IPv4-mapped IPv6 as the IPv4 address', () => {
    expect(signupNetworkOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one network, whatever the spelling', () => {
    expect(signupNetworkOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(signupNetworkOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(signupNetworkOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(signupNetworkOf('::1')).toBe('0:0:0:0::/64');
  });

  it('maps any two addresses of the same random /64 together, and of different /64s apart', () => {
    const group = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(group, group, group, (prefix, a, b) => {
        const addr = (tail: number[]) => [...prefix, ...tail].map((n) => n.toString(16)).join(':');
        expect(signupNetworkOf(addr(a))).toBe(signupNetworkOf(addr(b)));
        const other = [...prefix];
        other[3] = (other[3] + 1) % 0x10000;
        expect(signupNetworkOf([...other, ...a].map((n) => n.toString(16)).join(':'))).not.toBe(
          signupNetworkOf(addr(a)),
        );
      }),
    );
  });

  it('leaves a non-address untouched (the limit still counts it as one client)', () => {
    expect(signupNetworkOf('unknown')).toBe('unknown');
  });
});
