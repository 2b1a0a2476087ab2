import fc from 'fast-check';

import { collatesAsciiAsRoot, compareNames } from './compare-names';

const sign = (value: number) => Math.sign(value);
const identifier = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'),
  maxLength: 12,
});

describe('compareNames', () => {
  it('orders like localeCompare: a, b, B, ba (platform-protocol §13)', () => {
    expect(['ba', 'B', 'b', 'a'].sort(compareNames)).toEqual(['a', 'b', 'B', 'ba']);
    expect(['a9', 'a10', 'a_', 'A', 'a', '_z'].sort(compareNames)).toEqual(
      ['a', 'A', 'a_', 'a10', 'a9', '_z'].sort((x, y) => x.localeCompare(y)),
    );
  });

  it('agrees with localeCompare on names of letters, digits and underscores', () => {
    fc.assert(
      fc.property(identifier, identifier, (a, b) => {
        expect(sign(compareNames(a, b))).toBe(sign(a.localeCompare(b)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with localeCompare on any other name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 8 }), identifier, (a, b) => {
        expect(sign(compareNames(a, b))).toBe(sign(a.localeCompare(b)));
        expect(sign(compareNames(b, a))).toBe(sign(b.localeCompare(a)));
      }),
      { numRuns: 5_000 },
    );
    expect(sign(compareNames('école', 'ecole'))).toBe(sign('école'.localeCompare('ecole')));
    expect(sign(compareNames('order-lines', 'order_lines'))).toBe(
      sign('order-lines'.localeCompare('order_lines')),
    );
  });

  it('compares itself only under locales that collate ASCII as the root collation', () => {
    expect(collatesAsciiAsRoot({})).toBe(true);
    expect(collatesAsciiAsRoot({ LANG: 'C.UTF-8' })).toBe(true);
    expect(collatesAsciiAsRoot({ LANG: 'en_US.UTF-8' })).toBe(true);
    expect(collatesAsciiAsRoot({ LANG: 'fr_FR.UTF-8' })).toBe(true);
    // Danish sorts `aa` as `å`, after `z`; Lithuanian puts `y` between `i` and `j`.
    expect(collatesAsciiAsRoot({ LANG: 'da_DK.UTF-8' })).toBe(false);
    expect(collatesAsciiAsRoot({ LANG: 'en_US.UTF-8', LC_ALL: 'lt_LT.UTF-8' })).toBe(false);
    expect(collatesAsciiAsRoot({ LANG: 'en_US.UTF-8', LC_MESSAGES: 'da_DK' })).toBe(false);
    expect(collatesAsciiAsRoot({ LANG: 'sv_SE.UTF-8' })).toBe(false);
  });
});
