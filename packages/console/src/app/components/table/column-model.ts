/**
 * The table's column model: the selection column, then the chosen fields that exist in the
 * schema, in the chosen order; and what each header offers (sorting, or why not).
 */
import {
  headerSort,
  type SchemaCollection,
  type SchemaField,
  type ViewState,
} from '../../../protocol';
import { sortRefusal } from '../sortability';

/** The id of the selection column (its header is the select-all box). */
export const SELECT_COLUMN = '__select';

/** The fields of `visible` (column names) that the collection has, in that order. */
export function visibleFields(collection: SchemaCollection, visible: readonly string[]) {
  const byName = new Map(collection.fields.map((field) => [field.field, field]));
  return visible
    .map((name) => byName.get(name))
    .filter((field): field is SchemaField => field !== undefined);
}

export type HeaderKind =
  | { kind: 'select' }
  | { kind: 'sortable'; sorted: 'ascending' | 'descending' | 'none' }
  | { kind: 'locked'; refusal: string };

/** What a column's header shows: the select-all box, a sort button, or why it cannot sort. */
export function headerKind(
  collection: SchemaCollection,
  sort: ViewState['sort'],
  columnId: string,
): HeaderKind {
  if (columnId === SELECT_COLUMN) return { kind: 'select' };
  const refusal = sortRefusal(collection.fields.find((field) => field.field === columnId));
  if (refusal !== undefined) return { kind: 'locked', refusal };
  return { kind: 'sortable', sorted: headerSort(collection, sort, columnId) };
}
