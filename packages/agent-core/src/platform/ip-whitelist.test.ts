import { createIpWhitelist } from './ip-whitelist';

describe('createIpWhitelist', () => {
  const warnings: string[] = [];
  const whitelist = createIpWhitelist(
    [
      { type: 0, ip: '203.0.113.10' },
      { type: 1, ipMinimum: '198.51.100.1', ipMaximum: '198.51.100.50' },
      { type: 2, range: '2001:db8::/48' },
      { type: 2, range: '10.0.0.0/8' },
      { type: 0, ip: '2001:db8:ffff::1' },
      { type: 1, ipMinimum: '2001:db9::1', ipMaximum: '2001:db9::ff' },
      { type: 0, ip: 'not-an-ip' },
      { type: 2, range: '10.0.0.0/99' },
      { type: 1, ipMinimum: '10.0.0.1', ipMaximum: '::1' },
    ],
    (_level, message) => warnings.push(message),
  );

  it.each([
    ['203.0.113.10', true],
    ['203.0.113.11', false],
    ['198.51.100.1', true],
    ['198.51.100.50', true],
    ['198.51.100.51', false],
    ['198.51.99.200', false],
    ['2001:db8:0:1234::5', true],
    ['2001:db8:1::1', false],
    ['10.200.3.4', true],
    ['::ffff:10.1.1.1', true],
    ['2001:db8:ffff:0::1', true],
    ['2001:db9::80', true],
    ['2001:db9::100', false],
    ['[2001:db8::1]', true],
    ['garbage', false],
  ])('%s allowed: %s', (ip, allowed) => {
    expect(whitelist.isAllowed(ip)).toBe(allowed);
  });

  it('skips invalid rules with a warning and keeps the valid ones', () => {
    expect(whitelist.rules).toHaveLength(6);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain('ip must be an IPv4 or IPv6 address, got "not-an-ip"');
    expect(warnings[2]).toContain('both be IPv4 or both be IPv6');
  });
});
