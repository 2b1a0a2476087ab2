import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, type AgentSchema } from '../../protocol';
import { tableListParams } from './columns';

const schema: AgentSchema = {
  collections: [
    {
      name: 'stock',
      fields: [
        { field: 'warehouse', type: 'String', isPrimaryKey: true, isSortable: true },
        { field: 'sku', type: 'String', isPrimaryKey: true, isSortable: true },
        { field: 'quantity', type: 'Number', isSortable: true },
      ],
    },
  ],
};
const stock = schema.collections[0]!;

describe('the list request of a table', () => {
  it('asks for the primary-key order its headers show when the view sets no sort', () => {
    expect(tableListParams(schema, stock, DEFAULT_VIEW, ['quantity']).sort).toBe('warehouse,sku');
  });

  it("sends the view's sort when it has one", () => {
    const view = { ...DEFAULT_VIEW, sort: '-quantity' };
    expect(tableListParams(schema, stock, view, ['quantity']).sort).toBe('-quantity');
  });
});
