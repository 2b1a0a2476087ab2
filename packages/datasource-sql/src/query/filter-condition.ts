import {
  buildSearchTree,
  ConditionTreeFactory,
  type ColumnSchema,
  type ConditionTree,
  type Filter,
  type SearchField,
} from '@canopy/agent-core/toolkit';
import type { TableModel } from '../schema/table-model';

function columns(model: TableModel, prefix: string): SearchField[] {
  return Object.entries(model.fields)
    .filter((entry): entry is [string, ColumnSchema] => entry[1].type === 'Column')
    .map(([name, column]) => [`${prefix}${name}`, column]);
}

/**
 * The tree of a search that reaches the data source directly (the customizer's search layer
 * turns searches into condition trees before they get here): agent-core's one search
 * implementation (`buildSearchTree`, data-semantics §3.9) on the table's columns, and with
 * `extended` the columns of its to-one relations.
 */
function searchTree(
  model: TableModel,
  models: Map<string, TableModel>,
  search: string,
  extended: boolean,
  timezone: string,
): ConditionTree | null {
  const own = columns(model, '');
  const all = [...own];
  for (const [name, field] of Object.entries(model.fields)) {
    if (field.type !== 'ManyToOne' && field.type !== 'OneToOne') continue;
    const target = models.get(field.foreignCollection);
    if (target) all.push(...columns(target, `${name}:`));
  }
  return buildSearchTree(search.trim(), extended ? all : own, all, timezone);
}

/**
 * The filter's condition tree and search, as one tree (`null` matches everything): the filter's
 * own tree when there is no search, so that a validated tree stays recognizable as such.
 */
export function filterCondition(
  filter: Filter | null | undefined,
  model: TableModel,
  models: Map<string, TableModel>,
  timezone: string,
): ConditionTree | null {
  const tree = filter?.conditionTree ?? null;
  if (!filter?.search?.trim()) return tree;
  const search = searchTree(model, models, filter.search, filter.searchExtended, timezone);
  if (tree && search) return ConditionTreeFactory.intersect(tree, search);
  return tree ?? search;
}
