import { describe, expect, it } from 'vitest';
import { setTableOptions } from './layout-edit';
import { leafValue } from './TableSettings';

describe('layout mode: table defaults and row colour rules', () => {
  it('sets and removes table defaults, keeping the rest of the table', () => {
    let layout = setTableOptions(null, 'orders', { pageSize: 50, firstSegment: 'Pending' });
    layout = setTableOptions(layout, 'orders', {
      rowColours: [{ filter: { field: 'total', operator: 'present' }, colour: '#e03131' }],
    });
    expect(layout.collections?.orders?.table).toEqual({
      pageSize: 50,
      firstSegment: 'Pending',
      rowColours: [{ filter: { field: 'total', operator: 'present' }, colour: '#e03131' }],
    });
    layout = setTableOptions(layout, 'orders', { firstSegment: undefined, rowColours: [] });
    expect(layout.collections?.orders?.table).toEqual({ pageSize: 50 });
  });

  it('gives a typed value the shape its operator and field take', () => {
    expect(leafValue('present', 'x')).toBeUndefined();
    expect(leafValue('in', 'paid, shipped ,')).toEqual(['paid', 'shipped']);
    expect(leafValue('in', '1, 2', 'Number')).toEqual([1, 2]);
    expect(leafValue('greater_than', '250', 'Number')).toBe(250);
    expect(leafValue('greater_than', '12.', 'Number')).toBe('12.');
    expect(leafValue('equal', '250', 'String')).toBe('250');
    expect(leafValue('previous_x_days', '7')).toBe(7);
  });
});
