import { parseInstant, toIsoDate, toIsoTimestamp } from './date-text';

describe('toIsoTimestamp', () => {
  it.each([
    ['2024-03-15 10:00:00', '2024-03-15T10:00:00.000Z'],
    ['2024-03-15 10:00:00.123456+00', '2024-03-15T10:00:00.123Z'],
    ['2024-03-15 10:00:00+05:30', '2024-03-15T04:30:00.000Z'],
    ['2024-03-15T10:00:00.5Z', '2024-03-15T10:00:00.500Z'],
    ['infinity', 'infinity'],
  ])('reads %s', (text, expected) => {
    expect(toIsoTimestamp(text)).toBe(expected);
  });

  it('reads Date objects and dates', () => {
    expect(toIsoTimestamp(new Date(Date.UTC(2024, 0, 1)))).toBe('2024-01-01T00:00:00.000Z');
    expect(toIsoDate('2024-01-02 00:00:00')).toBe('2024-01-02');
  });
});

describe('parseInstant', () => {
  it('reads text without an offset in the given zone', () => {
    expect(parseInstant('2024-03-15T10:00:00', 'Europe/Paris')?.toISOString()).toBe(
      '2024-03-15T09:00:00.000Z',
    );
    expect(parseInstant('2024-03-15T10:00:00Z', 'Europe/Paris')?.toISOString()).toBe(
      '2024-03-15T10:00:00.000Z',
    );
    expect(parseInstant('yesterday')).toBeUndefined();
  });
});
