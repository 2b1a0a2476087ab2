import { describe, expect, it } from 'vitest';
import type { AgentRecord, SchemaCollection } from '../../protocol';
import { duplicateValues, initialValues } from './form-values';

const orders = {
  name: 'orders',
  fields: [
    { field: 'id', type: 'Number', isPrimaryKey: true, isReadOnly: true },
    { field: 'reference', type: 'String' },
    { field: 'status', type: 'Enum', defaultValue: 'pending' },
    { field: 'createdAt', type: 'Date', isReadOnly: true },
    { field: 'customer', type: 'Number', relationship: 'BelongsTo', reference: 'customers.id' },
    { field: 'items', type: ['Number'], relationship: 'HasMany', reference: 'items.orderId' },
  ],
} as unknown as SchemaCollection;

const record = {
  id: '7',
  type: 'orders',
  values: { id: 7, reference: 'SO-7', status: 'paid', createdAt: '2026-01-01' },
  toOne: { customer: { id: '3', type: 'customers', values: {}, toOne: {} } },
} as unknown as AgentRecord;

describe('form values', () => {
  it('starts a create form from the defaults and an edit form from the record', () => {
    expect(initialValues(orders, null)).toEqual({ status: 'pending' });
    expect(initialValues(orders, record)).toEqual({
      id: 7,
      reference: 'SO-7',
      status: 'paid',
      createdAt: '2026-01-01',
      customer: '3',
    });
  });

  it('copies a record without its primary key and read-only fields, keeping to-one links', () => {
    expect(duplicateValues(orders, record)).toEqual({
      reference: 'SO-7',
      status: 'paid',
      customer: '3',
    });
  });
});
