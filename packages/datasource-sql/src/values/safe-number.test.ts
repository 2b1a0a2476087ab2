import { toSafeNumber } from './safe-number';

describe('toSafeNumber', () => {
  it.each([
    ['12', 12],
    ['-0', 0],
    ['12.50', 12.5],
    ['0.1', 0.1],
    ['-3.000', -3],
    ['9007199254740991', 9007199254740991],
  ])('reads %s as the number %p', (text, expected) => {
    expect(toSafeNumber(text)).toBe(expected);
  });

  it.each(['9007199254740993', '123456789012345678901234567890', '0.12345678901234567890123'])(
    'keeps %s as a string because a double would lose digits',
    (text) => {
      expect(toSafeNumber(text)).toBe(text);
    },
  );

  it('keeps text that is not a decimal', () => {
    expect(toSafeNumber('NaN')).toBe('NaN');
    expect(toSafeNumber('1e400')).toBe('1e400');
  });
});
