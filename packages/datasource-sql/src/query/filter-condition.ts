import type { Filter, PlainConditionTree } from '@canopy/agent-core';
import type { TableModel } from '../schema/table-model';
import { searchCondition } from './search-condition';

/** The filter's condition tree and search, as one plain tree (`null` matches everything). */
export function filterCondition(
  filter: Filter | null | undefined,
  model: TableModel,
  models: Map<string, TableModel>,
): PlainConditionTree | null {
  const tree = filter?.conditionTree?.toPlainObject() ?? null;
  const search = filter?.search?.trim()
    ? searchCondition(model, models, filter.search, filter.searchExtended)
    : null;
  if (tree && search) return { aggregator: 'And', conditions: [tree, search] };
  return tree ?? search;
}
