import {
  buildSearchTree,
  type ColumnSchema,
  type Filter,
  type PlainConditionTree,
  type SearchField,
} from '@canopy/agent-core';
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
): PlainConditionTree | null {
  const own = columns(model, '');
  const all = [...own];
  for (const [name, field] of Object.entries(model.fields)) {
    if (field.type !== 'ManyToOne' && field.type !== 'OneToOne') continue;
    const target = models.get(field.foreignCollection);
    if (target) all.push(...columns(target, `${name}:`));
  }
  return (
    buildSearchTree(search.trim(), extended ? all : own, all, timezone)?.toPlainObject() ?? null
  );
}

/** The filter's condition tree and search, as one plain tree (`null` matches everything). */
export function filterCondition(
  filter: Filter | null | undefined,
  model: TableModel,
  models: Map<string, TableModel>,
  timezone: string,
): PlainConditionTree | null {
  const tree = filter?.conditionTree?.toPlainObject() ?? null;
  const search = filter?.search?.trim()
    ? searchTree(model, models, filter.search, filter.searchExtended, timezone)
    : null;
  if (tree && search) return { aggregator: 'And', conditions: [tree, search] };
  return tree ?? search;
}
