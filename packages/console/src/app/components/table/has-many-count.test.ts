// @vitest-environment happy-dom
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, type AgentSchema } from '../../../protocol';
import { widgetOptions } from '../../layout/ColumnLayoutRow';
import { applyTable } from '../../layout/apply-layout';
import { availableColumns, projectedColumns, tableListParams } from '../columns';
import { useCellColumns } from './cell-columns';
import { headerKind } from './column-model';
import { exportableColumns } from './csv-export';
import { countText } from './HasManyCountCell';

const schema: AgentSchema = {
  collections: [
    {
      name: 'orders',
      fields: [
        { field: 'id', type: 'Number', isPrimaryKey: true, isSortable: true },
        { field: 'total', type: 'Number', isSortable: true },
        { field: 'customer', type: 'Number', reference: 'customers.id', relationship: 'BelongsTo' },
        { field: 'payments', type: ['Number'], reference: 'payments.id', relationship: 'HasMany' },
        { field: 'tags', type: ['Number'], reference: 'tags.id', relationship: 'BelongsToMany' },
      ],
    },
    { name: 'customers', fields: [{ field: 'id', type: 'Number', isPrimaryKey: true }] },
    { name: 'payments', fields: [{ field: 'id', type: 'Number', isPrimaryKey: true }] },
  ],
};
const orders = schema.collections[0]!;
const counted = { payments: { type: 'has-many-count' as const } };
const table = { columns: [{ field: 'total' }, { field: 'payments' }, { field: 'id' }] };

describe('a has-many relation as a count column', () => {
  it('is a column only when the layout gives it the has-many-count widget', () => {
    expect(availableColumns(orders)).toEqual(['id', 'total', 'customer']);
    expect(availableColumns(orders, {})).toEqual(['id', 'total', 'customer']);
    expect(availableColumns(orders, { payments: { type: 'badge' } })).not.toContain('payments');
    expect(availableColumns(orders, counted)).toEqual(['id', 'total', 'customer', 'payments']);
  });

  it('takes the place the layout orders it at, and is left out without the widget', () => {
    expect(applyTable(table, availableColumns(orders, counted)).columns).toEqual([
      'total',
      'payments',
      'id',
    ]);
    expect(applyTable(table, availableColumns(orders)).columns).toEqual(['total', 'id']);
  });

  it('is never in the list projection nor the CSV export', () => {
    const visible = ['total', 'payments', 'customer', 'tags'];
    expect(projectedColumns(orders, visible)).toEqual(['total', 'customer']);
    const params = tableListParams(schema, orders, DEFAULT_VIEW, visible);
    expect(params.fields).toEqual(['id', 'total', 'customer']);
    expect(params.relationFields).toEqual({ customer: ['id'] });
    expect(exportableColumns(orders, visible)).toEqual(['total', 'customer']);
  });

  it('cannot be sorted by nor edited in place', () => {
    expect(headerKind(orders, undefined, 'payments').kind).toBe('locked');
    const { result } = renderHook(() =>
      useCellColumns({
        collection: orders,
        visible: ['total', 'payments'],
        schema,
        base: '/p/e/data',
        search: undefined,
        canEdit: true,
        save: async () => undefined,
        widgets: counted,
      }),
    );
    expect(result.current.map((column) => column.id)).toEqual(['total', 'payments']);
    expect(result.current[0]!.edit).toBeDefined();
    expect(result.current[1]!.edit).toBeUndefined();
  });

  it('says "…" while asked, "—" on error', () => {
    expect(countText({ isPending: true, isError: false })).toBe('…');
    expect(countText({ isPending: false, isError: true })).toBe('—');
    expect(countText({ isPending: false, isError: false, data: null })).toBe('—');
    expect(countText({ isPending: false, isError: false, data: 0 })).toBe('0');
    expect(countText({ isPending: false, isError: false, data: 12 })).toBe('12');
  });

  it('is offered in layout mode for to-many relations only', () => {
    const values = (name: string) =>
      widgetOptions(orders.fields.find((field) => field.field === name)!).map((o) => o.value);
    expect(values('payments')).toEqual(['has-many-count']);
    expect(values('tags')).toEqual(['has-many-count']);
    expect(values('total')).toContain('default');
    expect(values('total')).not.toContain('has-many-count');
    expect(values('customer')).not.toContain('has-many-count');
  });
});
