import { makeCaller } from '../../../../test/fixtures';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { InMemoryDataSource } from '../../../toolkit/in-memory/in-memory-data-source';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { DataSourceCustomizer } from '../../data-source-customizer';

describe('operator equivalences through the stack', () => {
  it('exposes derived operators over a SQL-like native set and rewrites leaves in the caller zone', async () => {
    const source = new InMemoryDataSource({
      events: {
        fields: {
          id: {
            type: 'Column',
            columnType: 'Number',
            isPrimaryKey: true,
            filterOperators: new Set(['Equal', 'In']),
          },
          name: {
            type: 'Column',
            columnType: 'String',
            filterOperators: new Set(['Equal', 'NotEqual', 'In', 'NotIn', 'Like', 'ILike']),
          },
          at: {
            type: 'Column',
            columnType: 'Date',
            filterOperators: new Set(['Equal', 'LessThan', 'GreaterThan']),
          },
        },
        records: [
          { id: 1, name: 'Launch', at: '2024-03-14T22:30:00Z' },
          { id: 2, name: 'Review', at: '2024-03-15T12:00:00Z' },
          { id: 3, name: '', at: '2024-03-16T00:30:00Z' },
        ],
      },
    });
    const list = jest.spyOn(source.getCollection('events'), 'list');
    const dataSource = await new DataSourceCustomizer()
      .addDataSource(async () => source)
      .getDataSource();
    const events = dataSource.getCollection('events');
    const operators = (events.schema.fields.name as { filterOperators: Set<string> })
      .filterOperators;
    expect([...operators]).toEqual(
      expect.arrayContaining(['Present', 'Blank', 'Contains', 'IStartsWith']),
    );

    jest.useFakeTimers({
      now: new Date('2024-03-15T10:00:00Z'),
      doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'],
    });
    try {
      const tokyo = makeCaller({ timezone: 'Asia/Tokyo' });
      const today = await events.list(
        tokyo,
        new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('at', 'Today') }),
        new Projection('id'),
      );
      // In Tokyo, 2024-03-15 runs from 2024-03-14T15:00Z to 2024-03-15T15:00Z.
      expect(today).toEqual([{ id: 1 }, { id: 2 }]);
      const present = await events.list(
        tokyo,
        new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('name', 'Present') }),
        new Projection('id'),
      );
      expect(present).toEqual([{ id: 1 }, { id: 2 }]);
    } finally {
      jest.useRealTimers();
    }
    const reached = list.mock.calls.map(([, filter]) => filter.conditionTree?.toPlainObject());
    expect(reached).toContainEqual({
      aggregator: 'And',
      conditions: [
        {
          aggregator: 'Or',
          conditions: [
            { field: 'at', operator: 'GreaterThan', value: '2024-03-14T15:00:00Z' },
            { field: 'at', operator: 'Equal', value: '2024-03-14T15:00:00Z' },
          ],
        },
        { field: 'at', operator: 'LessThan', value: '2024-03-15T15:00:00Z' },
      ],
    });
    expect(reached).toContainEqual({ field: 'name', operator: 'NotIn', value: [null, ''] });
  });
});
