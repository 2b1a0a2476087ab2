import ipaddr from 'ipaddr.js';
import type { Logger } from '../toolkit/interfaces/logger';
import type { IpWhitelist, IpWhitelistRule } from './agent-services';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Matcher = (address: Address) => boolean;

/**
 * Builds the IP whitelist from the platform's rules (protocol §4): single addresses, inclusive
 * ranges and CIDR blocks, IPv4 or IPv6. IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) match
 * IPv4 rules. An invalid rule is skipped with a warning.
 *
 * @example
 * const whitelist = createIpWhitelist([{ type: 2, range: '10.0.0.0/8' }], logger);
 * whitelist.isAllowed('10.1.2.3'); // true
 */
export function createIpWhitelist(rules: readonly IpWhitelistRule[], logger: Logger): IpWhitelist {
  const kept: IpWhitelistRule[] = [];
  const matchers: Matcher[] = [];
  for (const rule of rules) {
    try {
      matchers.push(matcherOf(rule));
      kept.push(rule);
    } catch (error) {
      logger(
        'Warn',
        `Skipping invalid IP whitelist rule ${JSON.stringify(rule)}: ${(error as Error).message}`,
      );
    }
  }
  return {
    rules: kept,
    isAllowed(ip: string): boolean {
      const address = parse(ip);
      if (!address) return false;
      return matchers.some((matches) => matches(address));
    },
  };
}

function matcherOf(rule: IpWhitelistRule): Matcher {
  switch (rule.type) {
    case 0: {
      const expected = parseStrict(rule.ip, 'ip');
      return (address) =>
        sameKind(address, expected) && bytes(address).join() === bytes(expected).join();
    }
    case 1: {
      const minimum = parseStrict(rule.ipMinimum, 'ipMinimum');
      const maximum = parseStrict(rule.ipMaximum, 'ipMaximum');
      if (!sameKind(minimum, maximum)) {
        throw new Error('ipMinimum and ipMaximum must both be IPv4 or both be IPv6');
      }
      return (address) =>
        sameKind(address, minimum) &&
        compare(bytes(address), bytes(minimum)) >= 0 &&
        compare(bytes(address), bytes(maximum)) <= 0;
    }
    case 2: {
      if (typeof rule.range !== 'string')
        throw new Error('range must be a CIDR such as 10.0.0.0/8');
      const [network, prefix] = ipaddr.parseCIDR(rule.range);
      const base = normalise(network);
      const bits = network.kind() === 'ipv6' && base.kind() === 'ipv4' ? prefix - 96 : prefix;
      return (address) => sameKind(address, base) && address.match(base, bits);
    }
    default:
      throw new Error(
        `unknown rule type ${JSON.stringify((rule as { type: unknown }).type)} (expected 0, 1 or 2)`,
      );
  }
}

function parseStrict(value: unknown, key: string): Address {
  if (typeof value !== 'string' || !ipaddr.isValid(value)) {
    throw new Error(`${key} must be an IPv4 or IPv6 address, got ${JSON.stringify(value)}`);
  }
  return normalise(ipaddr.parse(value));
}

function parse(value: string): Address | null {
  const trimmed = value.trim().replace(/^\[|\]$/g, '');
  return ipaddr.isValid(trimmed) ? normalise(ipaddr.parse(trimmed)) : null;
}

function normalise(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

function sameKind(a: Address, b: Address): boolean {
  return a.kind() === b.kind();
}

function bytes(address: Address): number[] {
  return address.toByteArray();
}

function compare(a: number[], b: number[]): number {
  for (let index = 0; index < a.length; index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
