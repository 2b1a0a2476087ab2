import type { ConditionTree } from './condition-tree/condition-tree';
import { Filter, type FilterComponents } from './filter';
import { type Page } from './page';
import { Sort, type SortClause } from './sort';

/** The parts of a {@link PaginatedFilter}. */
export interface PaginatedFilterComponents extends FilterComponents {
  sort?: Sort | readonly SortClause[] | null;
  page?: Page | null;
}

/**
 * A {@link Filter} with a sort and a page, as used by `list`.
 *
 * @example
 * new PaginatedFilter({
 *   conditionTree: new ConditionTreeLeaf('status', 'Equal', 'paid'),
 *   sort: new Sort({ field: 'createdAt', ascending: false }),
 *   page: new Page(0, 15),
 * });
 */
export class PaginatedFilter extends Filter {
  readonly sort: Sort | null;
  readonly page: Page | null;

  constructor(parts: PaginatedFilterComponents = {}) {
    super(parts);
    // A Sort is never mutated once built: overrides (several per list, one per layer) share it.
    this.sort = parts.sort
      ? parts.sort instanceof Sort
        ? parts.sort
        : new Sort(...parts.sort)
      : null;
    this.page = parts.page ?? null;
  }

  override override(parts: PaginatedFilterComponents): PaginatedFilter {
    if (this.keeps(parts)) return this;
    const merged: PaginatedFilterComponents = this.merged(parts);
    merged.sort = 'sort' in parts ? parts.sort : this.sort;
    merged.page = 'page' in parts ? parts.page : this.page;
    return new PaginatedFilter(merged);
  }

  override nest(prefix: string): PaginatedFilter {
    const nested = super.nest(prefix);
    return this.override({
      conditionTree: nested.conditionTree as ConditionTree | null,
      sort: this.sort?.nest(prefix) ?? null,
    });
  }

  protected override components(): PaginatedFilterComponents {
    return { ...super.components(), sort: this.sort, page: this.page };
  }
}
