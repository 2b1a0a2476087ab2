/**
 * The edits of layout mode on a collection's table, as pure functions from one layout document
 * to the next (what is then saved as the caller's draft, public API §7). Nothing here mutates.
 */
import type {
  CollectionLayout,
  ConsoleLayout,
  LayoutWidget,
  TableLayout,
} from '@canopy/platform-protocol';

export type TableColumn = { field: string; width?: number };

function withCollection(
  layout: ConsoleLayout | null,
  collection: string,
  change: (current: CollectionLayout) => CollectionLayout,
): ConsoleLayout {
  const base = layout ?? {};
  const current = base.collections?.[collection] ?? {};
  return { ...base, collections: { ...base.collections, [collection]: change(current) } };
}

function withTable(
  layout: ConsoleLayout | null,
  collection: string,
  change: (table: TableLayout) => TableLayout,
): ConsoleLayout {
  return withCollection(layout, collection, (current) => ({
    ...current,
    table: change(current.table ?? {}),
  }));
}

/** The columns being edited: the layout's, else `visible` (what the table shows now). */
export function editedColumns(
  layout: ConsoleLayout | null,
  collection: string,
  visible: readonly string[],
): TableColumn[] {
  const columns = layout?.collections?.[collection]?.table?.columns;
  return columns?.length ? columns : visible.map((field) => ({ field }));
}

export function setColumns(
  layout: ConsoleLayout | null,
  collection: string,
  columns: TableColumn[],
): ConsoleLayout {
  return withTable(layout, collection, (table) => ({ ...table, columns }));
}

/** Moves item `index` by `by` places (clamped); the same list when it cannot move. */
export function moveItem<T>(items: T[], index: number, by: number): T[] {
  const target = Math.max(0, Math.min(items.length - 1, index + by));
  if (target === index || !items[index]) return items;
  const next = [...items];
  const [moved] = next.splice(index, 1);
  next.splice(target, 0, moved!);
  return next;
}

/** Moves column `index` by `by` places. */
export const moveColumn = (columns: TableColumn[], index: number, by: number) =>
  moveItem(columns, index, by);

/** Shows `field` (at the end) or hides it; the last column cannot be hidden. */
export function toggleColumn(columns: TableColumn[], field: string, shown: boolean): TableColumn[] {
  const present = columns.some((column) => column.field === field);
  if (shown) return present ? columns : [...columns, { field }];
  if (!present || columns.length <= 1) return columns;
  return columns.filter((column) => column.field !== field);
}

/** Sets (or clears, with undefined) a column's width, within the platform's 40–2000 px. */
export function setWidth(
  columns: TableColumn[],
  field: string,
  width: number | undefined,
): TableColumn[] {
  return columns.map((column) => {
    if (column.field !== field) return column;
    if (width === undefined || !Number.isFinite(width)) return { field };
    return { field, width: Math.round(Math.max(40, Math.min(2000, width))) };
  });
}

/** Sets a field's `display` or `edit` widget (undefined: none, today's cell or input). */
export function setWidget(
  layout: ConsoleLayout | null,
  collection: string,
  field: string,
  use: 'display' | 'edit',
  widget: LayoutWidget | undefined,
): ConsoleLayout {
  return withCollection(layout, collection, (current) => {
    const fields = { ...current.fields };
    const { [use]: _previous, ...rest } = fields[field] ?? {};
    if (widget) fields[field] = { ...rest, [use]: widget };
    else if (Object.keys(rest).length > 0) fields[field] = rest;
    else delete fields[field];
    return { ...current, fields };
  });
}

/** Sets a field's display widget (undefined: none, today's cell). */
export const setDisplayWidget = (
  layout: ConsoleLayout | null,
  collection: string,
  field: string,
  widget: LayoutWidget | undefined,
) => setWidget(layout, collection, field, 'display', widget);

/** The settings a widget needs before the platform accepts it, with a sensible start. */
export function startingWidget(type: LayoutWidget['type']): LayoutWidget {
  switch (type) {
    case 'currency':
      return { type, settings: { currency: 'EUR' } };
    case 'badge':
      return { type, settings: { colours: {} } };
    case 'image':
      return { type, settings: { height: 32 } };
    case 'datetime':
      return { type, settings: { format: 'yyyy-MM-dd HH:mm' } };
    case 'duration':
      return { type, settings: { unit: 'seconds' } };
    case 'link':
      return { type, settings: { urlTemplate: 'https://example.com/{{id}}' } };
    default:
      return { type };
  }
}

/**
 * Sets table defaults of a collection (page size, density, first segment, row colours); a value
 * of `undefined` (or an empty list of rules) removes the setting.
 */
export function setTableOptions(
  layout: ConsoleLayout | null,
  collection: string,
  options: Pick<TableLayout, 'pageSize' | 'density' | 'firstSegment' | 'rowColours'>,
): ConsoleLayout {
  return withTable(layout, collection, (table) => {
    const next: TableLayout = { ...table };
    for (const [key, value] of Object.entries(options) as [keyof TableLayout, unknown][]) {
      if (value === undefined || value === null || (Array.isArray(value) && value.length === 0))
        delete next[key];
      else (next as Record<string, unknown>)[key] = value;
    }
    return next;
  });
}
