import { isCanopyError } from '../errors/canopy-error';
import { validateValue, validateWrittenValue } from './value-validator';

describe('validateWrittenValue', () => {
  const country = { columnType: 'String' as const, maxLength: 2 };

  it('refuses a string longer than the column holds, naming the field and the limit', () => {
    let error: unknown;
    try {
      validateWrittenValue('customers.country', country, 'FRA');
    } catch (caught) {
      error = caught;
    }
    expect(isCanopyError(error, { family: 'validation' })).toBe(true);
    expect((error as Error).message).toBe(
      '"customers.country" takes at most 2 characters; the value given has 3.',
    );
    expect(() =>
      validateWrittenValue('orders.flag', { columnType: 'String', maxLength: 1 }, 'ab'),
    ).toThrow('"orders.flag" takes at most 1 character; the value given has 2.');
  });

  it('counts characters, not UTF-16 units, and accepts what fits', () => {
    expect(() => validateWrittenValue('customers.country', country, '😀😀')).not.toThrow();
    expect(() => validateWrittenValue('customers.country', country, 'FR')).not.toThrow();
    expect(() => validateWrittenValue('customers.country', country, null)).not.toThrow();
    expect(() => validateWrittenValue('customers.country', country, '😀😀😀')).toThrow(
      'the value given has 3',
    );
  });

  it('still checks the type first, and a column without maxLength takes any length', () => {
    expect(() => validateWrittenValue('customers.country', country, 12)).toThrow(
      'wrong type for "customers.country"',
    );
    expect(() =>
      validateWrittenValue('customers.bio', { columnType: 'String' }, 'x'.repeat(100_000)),
    ).not.toThrow();
  });

  it('leaves filter values alone: a long value in a filter matches nothing, it is not an error', () => {
    expect(() => validateValue('customers.country', country, 'FRA')).not.toThrow();
  });
});
