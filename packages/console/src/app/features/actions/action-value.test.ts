import { describe, expect, it } from 'vitest';
import type { FormatContext } from '../../components/format';
import { formatActionValue } from './action-value';

const us: FormatContext = { locale: 'en-US', timeZone: 'America/New_York' };
const fr: FormatContext = { locale: 'fr-FR', timeZone: 'Europe/Paris' };
const euros = (base: string) => ({
  type: 'Number',
  widgetEdit: { name: 'price editor', parameters: { currency: 'EUR', base } },
});

describe('formatActionValue', () => {
  it('writes a price editor amount in its currency, in units or from cents', () => {
    expect(formatActionValue(euros('Unit'), 3138.02, us)).toBe('€3,138.02');
    expect(formatActionValue(euros('Unit'), 3138.02, fr)).toBe('3 138,02 €');
    expect(formatActionValue(euros('Cents'), 313802, us)).toBe('€3,138.02');
    expect(formatActionValue(euros('Cent'), '1250', us)).toBe('€12.50');
  });

  it('writes other numbers in the locale, without a currency', () => {
    expect(formatActionValue({ type: 'Number' }, 3138.02, us)).toBe('3,138.02');
    expect(formatActionValue({ type: 'Number', widgetEdit: { name: 'number input' } }, 7, fr)).toBe(
      '7',
    );
    expect(
      formatActionValue(
        { type: 'Number', widgetEdit: { name: 'price editor', parameters: { currency: null } } },
        3138.02,
        us,
      ),
    ).toBe('3,138.02');
  });

  it('writes dates in the time zone of the user, booleans and empty values as everywhere', () => {
    expect(formatActionValue({ type: 'Date' }, '2024-06-04T13:16:00.000Z', fr)).toBe(
      '04/06/2024 15:16',
    );
    expect(formatActionValue({ type: 'Dateonly' }, '2024-06-04', us)).toBe('06/04/2024');
    expect(formatActionValue({ type: 'Boolean' }, false, us)).toBe('No');
    expect(formatActionValue({ type: 'String' }, null, us)).toBe('—');
    expect(formatActionValue({ type: 'Enum' }, 'late', us)).toBe('late');
  });

  it('writes lists item by item, files by their name, JSON as readable structure', () => {
    expect(formatActionValue({ type: ['Number'] }, [1200, 3.5], us)).toBe('1,200, 3.5');
    expect(formatActionValue({ type: ['Enum'] }, [], us)).toBe('—');
    expect(
      formatActionValue({ type: 'File' }, 'data:text/plain;name=invoice%2042.txt;base64,SGk=', us),
    ).toBe('invoice 42.txt');
    expect(formatActionValue({ type: 'Json' }, { city: 'Paris' }, us)).toBe('city: Paris');
  });

  it("writes a record field's value as the record's id, not as a number", () => {
    const customer = { type: 'Number', reference: 'customers.id' };
    expect(formatActionValue(customer, 1234, us)).toBe('#1234');
    expect(formatActionValue(customer, null, us)).toBe('—');
  });

  it('reads an approval filed without a type as text', () => {
    expect(formatActionValue({}, 'as typed', us)).toBe('as typed');
  });
});
