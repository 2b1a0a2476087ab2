import { describe, expect, it } from 'vitest';
import {
  datePattern,
  formatDateOnly,
  formatDateTime,
  formatJsonInline,
  formatMoney,
  formatNumber,
  formatTime,
  formatValue,
  jsonShape,
  numberInputFormat,
  parseTypedDate,
  personName,
  type FormatContext,
} from './format';

const us: FormatContext = { locale: 'en-US', timeZone: 'America/New_York' };
const fr: FormatContext = { locale: 'fr-FR', timeZone: 'Europe/Paris' };
const de: FormatContext = { locale: 'de-DE', timeZone: 'Europe/Berlin' };
const moment = '2024-06-04T13:16:00.000Z';

describe('dates', () => {
  it('writes a moment in the locale and time zone of the user', () => {
    expect(formatDateTime(moment, us)).toBe('06/04/2024, 09:16 AM');
    expect(formatDateTime(moment, fr)).toBe('04/06/2024 15:16');
    expect(formatDateTime(moment, de)).toBe('04.06.2024, 15:16');
    expect(formatDateTime(moment, { locale: 'fr-FR', timeZone: 'Asia/Tokyo' })).toBe(
      '04/06/2024 22:16',
    );
  });

  it('writes a calendar date the same in every time zone', () => {
    expect(formatDateOnly('2024-06-04', us)).toBe('06/04/2024');
    expect(formatDateOnly('2024-06-04', { ...fr, timeZone: 'Pacific/Kiritimati' })).toBe(
      '04/06/2024',
    );
    expect(formatDateOnly('2024-06-04', de)).toBe('04.06.2024');
    expect(formatDateOnly('not a date', de)).toBe('not a date');
  });

  it('writes a time of day', () => {
    expect(formatTime('15:16:00', us)).toBe('03:16 PM');
    expect(formatTime('15:16:00', fr)).toBe('15:16');
  });

  it('gives the pattern of what it writes', () => {
    expect(datePattern(false, us)).toBe('MM[/]DD[/]YYYY');
    expect(datePattern(true, de)).toBe('DD[.]MM[.]YYYY[, ]HH[:]mm');
    expect(datePattern(true, us)).toBe('MM[/]DD[/]YYYY[, ]hh[:]mm[ ]A');
  });

  it('reads back what it writes, and what a person types', () => {
    for (const context of [us, fr, de]) {
      expect(parseTypedDate(formatDateTime(moment, context), true, context)).toBe(moment);
      expect(parseTypedDate(formatDateOnly('2024-06-04', context), false, context)).toBe(
        '2024-06-04',
      );
    }
    expect(parseTypedDate('6/4/2024 9:16 am', true, us)).toBe(moment);
    expect(parseTypedDate('6/4/2024 1:16 pm', true, us)).toBe('2024-06-04T17:16:00.000Z');
    expect(parseTypedDate('4.6.2024', false, de)).toBe('2024-06-04');
    expect(parseTypedDate('01/11/2025', false, us)).toBe('2025-01-11');
    expect(parseTypedDate('01/11/2025', false, fr)).toBe('2025-11-01');
    // A date without a time is midnight in the user's time zone.
    expect(parseTypedDate('04/06/2024', true, fr)).toBe('2024-06-03T22:00:00.000Z');
  });

  it('refuses what is not a date', () => {
    expect(parseTypedDate('31/02/2024', false, fr)).toBeNull();
    expect(parseTypedDate('13/13/2024', false, us)).toBeNull();
    expect(parseTypedDate('hello', false, us)).toBeNull();
    expect(parseTypedDate('04/06/2024 25:00', true, fr)).toBeNull();
  });
});

describe('numbers and money', () => {
  it('groups digits and writes the decimal mark of the locale', () => {
    expect(formatNumber(1353.62, us)).toBe('1,353.62');
    expect(formatNumber('1353.62', fr)).toBe('1 353,62');
    expect(formatNumber(1353.62, de)).toBe('1.353,62');
    expect(formatNumber('abc', de)).toBe('abc');
  });

  it('writes an amount with its currency', () => {
    expect(formatMoney(1353.6, 'EUR', us)).toBe('€1,353.60');
    expect(formatMoney(1353.6, 'EUR', fr)).toBe('1 353,60 €');
    expect(formatMoney('1353.6', 'EUR', de)).toBe('1.353,60 €');
    expect(formatMoney(5, 'USD', us)).toBe('$5.00');
    // A code that is no currency: the amount reads as a number, never an error.
    expect(formatMoney(1353.6, 'euro', fr)).toBe('1 353,6');
    expect(numberInputFormat('euro', fr)).toEqual({
      thousandSeparator: ' ',
      decimalSeparator: ',',
    });
  });

  it('tells a number input the separators and sign it shows', () => {
    expect(numberInputFormat(undefined, us)).toEqual({
      thousandSeparator: ',',
      decimalSeparator: '.',
    });
    expect(numberInputFormat('EUR', fr)).toEqual({
      thousandSeparator: ' ',
      decimalSeparator: ',',
      suffix: ' €',
      decimalScale: 2,
      fixedDecimalScale: true,
    });
    expect(numberInputFormat('EUR', us)).toMatchObject({ prefix: '€' });
  });
});

describe('JSON and any field', () => {
  const items = [
    { sku: 'A-1', quantity: 2 },
    { sku: 'B-2', quantity: 1500 },
  ];

  it('shows JSON as structure, never [object Object]', () => {
    expect(formatJsonInline(items, fr)).toBe(
      '{sku: A-1, quantity: 2}, {sku: B-2, quantity: 1 500}',
    );
    expect(formatJsonInline({ city: 'Paris', geo: { lat: 48.85 } }, us)).toBe(
      'city: Paris, geo: {lat: 48.85}',
    );
    expect(jsonShape(['a', 1], us)).toEqual({
      kind: 'list',
      items: [
        { kind: 'scalar', text: 'a' },
        { kind: 'scalar', text: '1' },
      ],
    });
  });

  it('formats a value by its field', () => {
    expect(formatValue({ type: 'Number', currency: 'EUR' }, 2108.3, de)).toBe('2.108,30 €');
    expect(formatValue({ type: 'Number', isPrimaryKey: true }, 12345, de)).toBe('12345');
    expect(formatValue({ type: 'Date' }, moment, de)).toBe('04.06.2024, 15:16');
    expect(formatValue({ type: 'Dateonly' }, '2024-06-04', us)).toBe('06/04/2024');
    expect(formatValue({ type: 'Json' }, { a: [1, 2] }, us)).toBe('a: [1, 2]');
    expect(formatValue({ type: 'String' }, null, us)).toBe('—');
    expect(formatValue({ type: 'Boolean' }, false, us)).toBe('No');
  });
});

describe('people', () => {
  it('names a person the same in History, activity and notes', () => {
    expect(
      personName({ firstName: 'Grace', lastName: 'Support', email: 'support@shop.example' }),
    ).toBe('Grace Support');
    expect(personName({ username: 'admin', email: 'admin@shop.example' })).toBe('admin');
    // History has no user name: the name part of the e-mail, as the platform's default one.
    expect(personName({ firstName: null, lastName: null, email: 'admin@shop.example' })).toBe(
      'admin',
    );
  });
});
