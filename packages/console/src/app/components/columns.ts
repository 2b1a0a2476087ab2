/**
 * The columns of a record table (the user's choice, kept per workspace, user and collection in
 * localStorage, or the defaults) and the list request they make: the table and the first
 * screen's prefetch build the same request, so the prefetched answer is the table's.
 */
import type { LayoutWidget } from '@canopy/platform-protocol';
import {
  effectiveSort,
  isRelation,
  isToMany,
  isToOne,
  labelField,
  typeName,
  type AgentSchema,
  type ListParams,
  type SchemaCollection,
  type SchemaField,
  type ViewState,
} from '../../protocol';
import { relationProjection } from '../data';

/**
 * The columns shown by default, up to 8: the primary key, the record's label, enums, to-one
 * relations, then other plain columns; fields imported from relations (`a@@@b`) and JSON last.
 */
export function defaultColumns(collection: SchemaCollection): string[] {
  const label = labelField(collection);
  const rank = (field: SchemaField): number => {
    if (field.isPrimaryKey) return 0;
    if (field.field === label) return 1;
    if (field.field.includes('@@@')) return 8;
    const type = typeName(field.type);
    if (type === 'Enum') return 2;
    if (isToOne(field)) return 3;
    if (type === 'String' || type === 'Number' || type === 'Boolean') return 4;
    if (type === 'Date' || type === 'Dateonly') return 5;
    if (type === 'Json' || type === 'Object' || type === 'Array') return 9;
    return 6;
  };
  return collection.fields
    .filter((f) => !isRelation(f) || isToOne(f))
    .map((field, index) => ({ field, index }))
    .sort((a, b) => rank(a.field) - rank(b.field) || a.index - b.index)
    .slice(0, 8)
    .map(({ field }) => field.field);
}

/**
 * The fields a table can show: plain fields and to-one relations, and the to-many relations the
 * team's layout shows as a count (`widgets`: its display widgets, per field).
 */
export function availableColumns(
  collection: SchemaCollection,
  widgets?: Record<string, LayoutWidget>,
): string[] {
  return collection.fields
    .filter(
      (f) =>
        !isRelation(f) ||
        isToOne(f) ||
        (isToMany(f) && widgets?.[f.field]?.type === 'has-many-count'),
    )
    .map((f) => f.field);
}

/** The to-many relations the layout may show as a count column (layout mode offers them). */
export function countableRelations(collection: SchemaCollection): string[] {
  return collection.fields.filter(isToMany).map((f) => f.field);
}

/** The visible columns that are the record's own fields (a to-many count is asked apart). */
export function projectedColumns(collection: SchemaCollection, visible: readonly string[]) {
  const toMany = new Set(countableRelations(collection));
  return visible.filter((name) => !toMany.has(name));
}

export function columnsKey(workspace: string, user: number, collection: SchemaCollection): string {
  return `canopy.columns.${workspace}.${user}.${collection.name}`;
}

/** The columns the user chose (those still in the schema), or undefined when they chose none. */
export function storedColumns(
  workspace: string,
  user: number,
  collection: SchemaCollection,
): string[] | undefined {
  const available = availableColumns(collection);
  try {
    const key = columnsKey(workspace, user, collection);
    const stored = JSON.parse(localStorage.getItem(key) ?? 'null') as string[] | null;
    const valid = stored?.filter((name) => available.includes(name));
    return valid?.length ? valid : undefined;
  } catch {
    return undefined;
  }
}

/** The columns the user chose (those still in the schema), or the defaults. */
export function readColumns(workspace: string, user: number, collection: SchemaCollection) {
  return storedColumns(workspace, user, collection) ?? defaultColumns(collection);
}

/** The list request of a table showing `visible` columns in `view`. */
export function tableListParams(
  schema: AgentSchema,
  collection: SchemaCollection,
  view: ViewState,
  visible: string[],
): ListParams {
  const pks = collection.fields.filter((f) => f.isPrimaryKey).map((f) => f.field);
  const fields = [...new Set([...pks, ...projectedColumns(collection, visible)])];
  return {
    fields,
    relationFields: relationProjection(schema, collection, fields),
    // The order the headers show, sent even when the view sets none (the primary key), so every
    // agent pages the same way, including those that add no order of their own.
    sort: effectiveSort(collection, view.sort),
    page: { number: view.page, size: view.size },
    search: view.search,
    filters: view.filters,
    segment: view.segment,
  };
}
