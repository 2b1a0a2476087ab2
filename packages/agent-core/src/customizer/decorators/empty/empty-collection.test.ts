import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { Aggregation } from '../../../toolkit/query/aggregation';
import { ConditionTreeFactory } from '../../../toolkit/query/condition-tree/condition-tree-factory';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { matchesNothing } from './empty-collection';

describe('empty filters', () => {
  it.each([
    [new ConditionTreeLeaf('id', 'In', []), true],
    [ConditionTreeFactory.MatchNone, true],
    [
      ConditionTreeFactory.intersect(
        new ConditionTreeLeaf('id', 'Equal', 1),
        new ConditionTreeLeaf('id', 'In', [2, 3]),
      ),
      true,
    ],
    [
      ConditionTreeFactory.intersect(
        new ConditionTreeLeaf('id', 'In', [1, 2]),
        new ConditionTreeLeaf('id', 'In', [2, 3]),
      ),
      false,
    ],
    [
      ConditionTreeFactory.union(
        new ConditionTreeLeaf('id', 'In', []),
        new ConditionTreeLeaf('id', 'Equal', 1),
      ),
      false,
    ],
    [null, false],
  ])('%#: matchesNothing is %p', (tree, expected) => {
    expect(matchesNothing(tree)).toBe(expected);
  });

  it('never reaches the data source for such requests', async () => {
    const { dataSource, bottom } = await buildBookshop(() => undefined);
    const spy = jest.spyOn(bottom.getCollection('books'), 'list');
    const books = dataSource.getCollection('books');
    const none = new ConditionTreeLeaf('id', 'In', []);
    expect(
      await books.list(
        makeCaller(),
        new PaginatedFilter({ conditionTree: none }),
        new Projection('id'),
      ),
    ).toEqual([]);
    expect(
      await books.aggregate(
        makeCaller(),
        new Filter({ conditionTree: none }),
        new Aggregation({ operation: 'Count' }),
      ),
    ).toEqual([]);
    await books.delete(makeCaller(), new Filter({ conditionTree: none }));
    expect(spy).not.toHaveBeenCalled();
    expect(bottom.getCollection('books').records).toHaveLength(5);
  });
});
