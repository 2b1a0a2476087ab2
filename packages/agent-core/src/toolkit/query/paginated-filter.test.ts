import { ConditionTreeLeaf } from './condition-tree/condition-tree-leaf';
import { Page } from './page';
import { PaginatedFilter } from './paginated-filter';
import { Sort } from './sort';

describe('PaginatedFilter', () => {
  it('copies plain sort clauses, so that later changes to them do not reach the filter', () => {
    const clause = { field: 'createdAt', ascending: false };
    const filter = new PaginatedFilter({ sort: [clause] });
    clause.field = 'id';
    expect(filter.sort).toBeInstanceOf(Sort);
    expect([...(filter.sort ?? [])]).toEqual([{ field: 'createdAt', ascending: false }]);
  });

  it('shares its Sort with the overrides that keep it, and takes a new one when given', () => {
    const filter = new PaginatedFilter({
      conditionTree: new ConditionTreeLeaf('status', 'Equal', 'paid'),
      sort: new Sort({ field: 'createdAt', ascending: false }),
      page: new Page(0, 15),
    });
    const narrowed = filter.override({ conditionTree: null });
    expect(narrowed.sort).toBe(filter.sort);
    expect(narrowed.page).toBe(filter.page);
    const resorted = filter.override({ sort: filter.sort?.inverse() ?? null });
    expect([...(resorted.sort ?? [])]).toEqual([{ field: 'createdAt', ascending: true }]);
    expect([...(filter.sort ?? [])]).toEqual([{ field: 'createdAt', ascending: false }]);
  });

  it('nests its condition tree and sort under a relation', () => {
    const nested = new PaginatedFilter({
      conditionTree: new ConditionTreeLeaf('name', 'Equal', 'Ada'),
      sort: new Sort({ field: 'name', ascending: true }),
    }).nest('author');
    expect(nested.conditionTree).toEqual(new ConditionTreeLeaf('author:name', 'Equal', 'Ada'));
    expect([...(nested.sort ?? [])]).toEqual([{ field: 'author:name', ascending: true }]);
  });
});
