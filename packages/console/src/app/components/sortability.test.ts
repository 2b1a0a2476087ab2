import { describe, expect, it } from 'vitest';
import { sortRefusal } from './sortability';

describe('why a column cannot be sorted', () => {
  it('says nothing for a sortable field (sortable unless the agent says otherwise)', () => {
    expect(sortRefusal({ field: 'id', type: 'Number', isSortable: true })).toBeUndefined();
    expect(sortRefusal({ field: 'email', type: 'String' })).toBeUndefined();
  });

  it('names a computed field', () => {
    expect(
      sortRefusal({ field: 'full_name', type: 'String', isSortable: false, isVirtual: true }),
    ).toMatch(/computed field/);
  });

  it('names both causes when the agent does not say which', () => {
    expect(sortRefusal({ field: 'notes', type: 'String', isSortable: false })).toMatch(
      /computed field, or one the data source cannot order by/,
    );
  });

  it('names a relation', () => {
    expect(
      sortRefusal({
        field: 'customer',
        type: 'Number',
        reference: 'customers.id',
        relationship: 'BelongsTo',
      }),
    ).toMatch(/relation/);
  });
});
