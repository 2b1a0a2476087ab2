import { describe, expect, it } from 'vitest';
import type { AgentSchema } from '../../protocol';
import { filterableFields } from './filter-fields';

const schema: AgentSchema = {
  collections: [
    {
      name: 'customers',
      fields: [
        { field: 'id', type: 'Number', isPrimaryKey: true, isFilterable: true },
        { field: 'address@@@country', type: 'String', isFilterable: true },
        { field: 'address@@@zip', type: 'String', isFilterable: false },
        { field: 'fullName', type: 'String', isFilterable: true },
      ],
    },
    {
      name: 'orders',
      fields: [
        { field: 'id', type: 'Number', isPrimaryKey: true, isFilterable: true },
        { field: 'customer', type: 'Number', relationship: 'BelongsTo', reference: 'customers.id' },
      ],
    },
  ],
};
const [customers, orders] = schema.collections as [
  AgentSchema['collections'][0],
  AgentSchema['collections'][0],
];

describe('the fields a condition (a team scope) may use', () => {
  it('leaves out fields the schema says are not filterable', () => {
    const fields = filterableFields(schema, customers);
    expect(fields.map((f) => f.path)).toEqual(['id', 'address@@@country', 'fullName']);
    expect(fields[1]?.operators.slice(0, 7)).toEqual([
      'equal',
      'not_equal',
      'present',
      'blank',
      'missing',
      'in',
      'not_in',
    ]);
  });

  it("offers only the operators the agent's capabilities list, on own and related fields", () => {
    const supported = {
      customers: {
        id: ['equal', 'in', 'greater_than'],
        'address@@@country': ['in', 'equal'],
        'address@@@zip': [],
        fullName: [],
      },
      orders: { id: ['equal'] },
    };
    const fields = filterableFields(schema, orders, supported);
    expect(fields.map((f) => [f.path, f.operators])).toEqual([
      ['id', ['equal']],
      ['customer:id', ['equal', 'in', 'greater_than']],
      ['customer:address@@@country', ['equal', 'in']],
    ]);
  });
});
