import { describe, expect, it } from 'vitest';
import { addressKey, minutesOf } from './form-rate-limit.ts';

describe('form rate limit', () => {
  it('counts an IPv4 address as itself, also when it arrives IPv4-mapped', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('counts every IPv6 address of one /56 network as one visitor, and other networks apart', () => {
    const home = addressKey('2001:db8:1234:5600::1');
    expect(addressKey('2001:db8:1234:56ff:aaaa:bbbb:cccc:dddd')).toBe(home);
    expect(addressKey('2001:db8:1234:5700::1')).not.toBe(home);
  });

  it('words the wait in whole minutes', () => {
    expect(minutesOf(30)).toBe('1 minute');
    expect(minutesOf(61)).toBe('2 minutes');
  });
});
