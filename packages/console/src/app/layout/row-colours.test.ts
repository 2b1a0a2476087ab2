import { describe, expect, it } from 'vitest';
import { operatorLabel } from '../../protocol';
import { describeTree, matchTree, operatorName, rowColour, type RowValues } from './row-colours';

// Friday 27 November 2026, 23:30 in Paris (22:30 UTC).
const paris = {
  timeZone: 'Europe/Paris',
  now: Date.parse('2026-11-27T22:30:00Z'),
  operatorLabel,
};
const row = (values: Record<string, unknown>, toOne?: RowValues['toOne']): RowValues => ({
  values,
  toOne,
});
const match = (tree: Parameters<typeof matchTree>[0], values: Record<string, unknown>) =>
  matchTree(tree, row(values), paris);

describe('row colouring rules (row-colours.ts)', () => {
  it('gives a row the colour of the first rule it matches', () => {
    const rules = [
      { filter: { field: 'status', operator: 'equal', value: 'late' }, colour: '#e03131' },
      { filter: { field: 'total', operator: 'greater_than', value: 100 }, colour: '#2f9e44' },
      { filter: { field: 'total', operator: 'present' }, colour: '#1971c2' },
    ];
    expect(rowColour(rules, row({ status: 'late', total: 500 }), paris)?.colour).toBe('#e03131');
    expect(rowColour(rules, row({ status: 'paid', total: 500 }), paris)).toEqual({
      colour: '#2f9e44',
      label: 'Highlighted: total is greater than 100',
    });
    expect(rowColour(rules, row({ status: 'paid', total: 5 }), paris)?.colour).toBe('#1971c2');
    expect(rowColour(rules, row({ status: 'paid', total: null }), paris)).toBeUndefined();
  });

  it('skips a rule on a field the row does not hold, an unknown operator or a bad colour', () => {
    const rules = [
      { filter: { field: 'secret', operator: 'present' }, colour: '#e03131' },
      { filter: { field: 'total', operator: 'sounds_like', value: 'x' }, colour: '#e03131' },
      { filter: { field: 'total', operator: 'present' }, colour: 'red' },
      {
        filter: {
          aggregator: 'or' as const,
          conditions: [
            { field: 'total', operator: 'present' },
            { field: 'customer:secret', operator: 'present' },
          ],
        },
        colour: '#e03131',
      },
      {
        filter: { field: 'customer:name', operator: 'i_contains', value: 'ANN' },
        colour: '#2f9e44',
      },
    ];
    const values = row({ total: 3 }, { customer: { values: { name: 'Ann Smith' } } });
    expect(rowColour(rules, values, paris)?.colour).toBe('#2f9e44');
    expect(rowColour(rules, row({ total: 3 }), paris)).toBeUndefined();
  });

  it('evaluates and/or groups, in either case of the wire', () => {
    const tree = {
      aggregator: 'And' as const,
      conditions: [
        { field: 'status', operator: 'In', value: ['paid', 'shipped'] },
        {
          aggregator: 'or' as const,
          conditions: [
            { field: 'total', operator: 'GreaterThanOrEqual', value: 100 },
            { field: 'email', operator: 'EndsWith', value: '@vip.example' },
          ],
        },
      ],
    };
    expect(match(tree, { status: 'paid', total: 100, email: 'a@b.c' })).toBe(true);
    expect(match(tree, { status: 'paid', total: 10, email: 'a@vip.example' })).toBe(true);
    expect(match(tree, { status: 'paid', total: 10, email: 'a@b.c' })).toBe(false);
    expect(match(tree, { status: 'late', total: 500, email: 'a@b.c' })).toBe(false);
    expect(operatorName('PreviousXDaysToDate')).toBe('previous_x_days_to_date');
    expect(operatorName('NotIContains')).toBe('not_i_contains');
    expect(operatorName('less_than')).toBe('less_than');
    expect(describeTree({ field: 'total', operator: 'GreaterThan', value: 3 })).toBe(
      'total greater than 3',
    );
    expect(describeTree(tree, operatorLabel)).toBe(
      'status is one of paid, shipped and total is at least 100 or email ends with @vip.example',
    );
  });

  it('knows the value operators of a condition tree', () => {
    expect(match({ field: 'n', operator: 'equal', value: '3' }, { n: 3 })).toBe(true);
    expect(match({ field: 'b', operator: 'equal', value: true }, { b: true })).toBe(true);
    expect(match({ field: 'b', operator: 'not_equal', value: true }, { b: false })).toBe(true);
    expect(match({ field: 's', operator: 'not_in', value: ['a'] }, { s: null })).toBe(true);
    expect(match({ field: 's', operator: 'blank' }, { s: '  ' })).toBe(true);
    expect(match({ field: 's', operator: 'missing' }, { s: '' })).toBe(false);
    expect(match({ field: 's', operator: 'less_than', value: 'b' }, { s: 'a' })).toBe(true);
    expect(match({ field: 's', operator: 'greater_than', value: 3 }, { s: null })).toBe(false);
    expect(match({ field: 's', operator: 'contains', value: 'nn' }, { s: 'Ann' })).toBe(true);
    expect(match({ field: 's', operator: 'not_contains', value: 'x' }, { s: null })).toBe(true);
    expect(match({ field: 's', operator: 'starts_with', value: 'an' }, { s: 'Ann' })).toBe(false);
    expect(match({ field: 's', operator: 'i_starts_with', value: 'an' }, { s: 'Ann' })).toBe(true);
    expect(match({ field: 's', operator: 'like', value: 'A_n%' }, { s: 'Ann Smith' })).toBe(true);
    expect(match({ field: 's', operator: 'like', value: 'a.n' }, { s: 'abn' })).toBe(false);
    expect(match({ field: 's', operator: 'i_like', value: 'ann%' }, { s: 'ANNE' })).toBe(true);
    expect(match({ field: 's', operator: 'match', value: '^A\\w+$' }, { s: 'Ann' })).toBe(true);
    expect(match({ field: 's', operator: 'match', value: '(' }, { s: 'Ann' })).toBeUndefined();
    expect(match({ field: 's', operator: 'longer_than', value: 2 }, { s: 'Ann' })).toBe(true);
    expect(match({ field: 's', operator: 'shorter_than', value: 2 }, { s: 'Ann' })).toBe(false);
    expect(
      match({ field: 't', operator: 'includes_all', value: ['a', 'b'] }, { t: ['b', 'a'] }),
    ).toBe(true);
    expect(match({ field: 't', operator: 'includes_none', value: ['c'] }, { t: ['a'] })).toBe(true);
    expect(
      match({ field: 's', operator: 'equal', value: '{{currentUser.email}}' }, { s: 'a' }),
    ).toBeUndefined();
  });

  it('reads periods in the user’s time zone, weeks from Monday', () => {
    // 23:30 on Friday the 27th in Paris is already Saturday the 28th in Tokyo.
    const at = (iso: string, operator: string, value?: unknown, timeZone = 'Europe/Paris') =>
      matchTree({ field: 'd', operator, value }, row({ d: iso }), { ...paris, timeZone });
    expect(at('2026-11-27T06:00:00Z', 'today')).toBe(true);
    expect(at('2026-11-27T06:00:00Z', 'today', undefined, 'Asia/Tokyo')).toBe(false);
    expect(at('2026-11-27T06:00:00Z', 'yesterday', undefined, 'Asia/Tokyo')).toBe(true);
    // Midnight in Paris is 23:00 UTC the day before: still today.
    expect(at('2026-11-26T23:00:00Z', 'today')).toBe(true);
    expect(at('2026-11-26T22:59:59Z', 'today')).toBe(false);
    expect(at('2026-11-26', 'yesterday')).toBe(true);
    expect(at('2026-11-27', 'today')).toBe(true);
    // This week began on Monday the 23rd; last week ran from the 16th to the 22nd.
    expect(at('2026-11-23T08:00:00+01:00', 'previous_week_to_date')).toBe(true);
    expect(at('2026-11-22T08:00:00+01:00', 'previous_week')).toBe(true);
    expect(at('2026-11-15T08:00:00+01:00', 'previous_week')).toBe(false);
    expect(at('2026-10-31', 'previous_month')).toBe(true);
    expect(at('2026-07-01', 'previous_quarter')).toBe(true);
    expect(at('2026-10-01', 'previous_quarter_to_date')).toBe(true);
    expect(at('2025-12-31', 'PreviousYear')).toBe(true);
    expect(at('2026-11-20', 'previous_x_days', 7)).toBe(true);
    expect(at('2026-11-27', 'previous_x_days', 7)).toBe(false);
    expect(at('2026-11-27', 'previous_x_days_to_date', 7)).toBe(true);
    expect(at('2026-11-27T20:00:00Z', 'after_x_hours_ago', 3)).toBe(true);
    expect(at('2026-11-27T18:00:00Z', 'before_x_hours_ago', 3)).toBe(true);
    expect(at('2026-11-20T00:00:00Z', 'past')).toBe(true);
    expect(at('2026-12-20', 'future')).toBe(true);
    // A bound without an offset is in the user's zone: 10:00 in Paris is 09:00 UTC.
    expect(at('2026-11-27T09:30:00Z', 'after', '2026-11-27T10:00:00')).toBe(true);
    expect(at('2026-11-27T09:30:00Z', 'after', '2026-11-27T10:00:00Z')).toBe(false);
    expect(at('2026-11-27T09:30:00Z', 'before', '2026-11-27T11:00:00')).toBe(true);
    expect(at('not a date', 'today')).toBeUndefined();
    expect(at('2026-11-27', 'previous_x_days', 'many')).toBeUndefined();
  });
});
