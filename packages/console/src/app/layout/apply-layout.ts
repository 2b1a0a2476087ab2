/**
 * How a team's layout (issue 32, public API §7) shapes what the Console shows: a collection's
 * table (columns, widths, default sort, page size, density, first segment, row colours) and the
 * sidebar (order, groups, names, icons, hidden collections). Pure. What the layout names but the user cannot see — a field the
 * schema (the user's rights) leaves out, a collection they may not browse — stays out: a layout
 * only orders and hides what is there.
 */
import type {
  CollectionLayout,
  ConsoleLayout,
  LayoutWidget,
  TableLayout,
} from '@canopy/platform-protocol';

/** The table a layout asks for, over the columns the user can see. */
export interface AppliedTable {
  /** Visible columns in order; `undefined`: the layout sets none (today's columns). */
  columns: string[] | undefined;
  /** Widths in pixels, per column. */
  widths: Record<string, number>;
  /** `field` or `-field` (the view's sort), or undefined. */
  sort: string | undefined;
  pageSize: number | undefined;
  density: TableLayout['density'];
  /** The segment the list opens on, when the address names none (first-segment.ts checks it). */
  firstSegment: string | undefined;
  /** Row colouring rules, in order (row-colours.ts). */
  rowColours: NonNullable<TableLayout['rowColours']> | undefined;
}

export function collectionLayout(
  layout: ConsoleLayout | null | undefined,
  collection: string,
): CollectionLayout | undefined {
  return layout?.collections?.[collection];
}

export function applyTable(
  table: TableLayout | undefined,
  available: readonly string[],
): AppliedTable {
  const known = new Set(available);
  const listed = (table?.columns ?? []).filter((column) => known.has(column.field));
  const columns =
    listed.length > 0 ? [...new Set(listed.map((column) => column.field))] : undefined;
  const widths: Record<string, number> = {};
  for (const column of listed) if (column.width) widths[column.field] = column.width;
  const sortField = table?.defaultSort?.field;
  return {
    columns,
    widths,
    sort:
      sortField && known.has(sortField)
        ? `${table!.defaultSort!.ascending ? '' : '-'}${sortField}`
        : undefined,
    pageSize: table?.pageSize,
    density: table?.density,
    firstSegment: table?.firstSegment || undefined,
    rowColours: table?.rowColours?.length ? table.rowColours : undefined,
  };
}

/** The display widget of each field the layout gives one. */
export function displayWidgets(
  collection: CollectionLayout | undefined,
): Record<string, LayoutWidget> {
  const result: Record<string, LayoutWidget> = {};
  for (const [field, widgets] of Object.entries(collection?.fields ?? {})) {
    if (widgets.display) result[field] = widgets.display;
  }
  return result;
}

/** The table's vertical spacing (Mantine) per density; undefined: today's. */
export function densitySpacing(density: TableLayout['density']): number | undefined {
  return density === 'compact' ? 2 : density === 'spacious' ? 12 : density ? 6 : undefined;
}

/** A sidebar entry: a collection (with the name it shows), or a group of them. */
export type SidebarEntry =
  | { type: 'collection'; collection: string; displayName?: string; icon?: string }
  | {
      type: 'group';
      name: string;
      icon?: string;
      collections: { collection: string; displayName?: string; icon?: string }[];
    };

/**
 * The sidebar of `collections` (those the user may browse, in today's order) under the layout:
 * its entries first, in its order, with their names and groups; hidden ones left out; the
 * collections it does not mention after them, in today's order. Empty groups are left out.
 */
export function applySidebar(
  layout: ConsoleLayout | null | undefined,
  collections: readonly string[],
): SidebarEntry[] {
  const items = layout?.sidebar?.items;
  if (!items?.length) return collections.map((collection) => ({ type: 'collection', collection }));
  const browsable = new Set(collections);
  const placed = new Set<string>();
  const take = (entry: {
    collection: string;
    displayName?: string;
    icon?: string;
    hidden?: boolean;
  }) => {
    if (!browsable.has(entry.collection) || placed.has(entry.collection)) return undefined;
    placed.add(entry.collection);
    if (entry.hidden) return undefined;
    return {
      collection: entry.collection,
      ...(entry.displayName ? { displayName: entry.displayName } : {}),
      ...(entry.icon ? { icon: entry.icon } : {}),
    };
  };
  const result: SidebarEntry[] = [];
  for (const item of items) {
    if (item.type === 'group') {
      const inside = item.collections
        .map(take)
        .filter((entry): entry is NonNullable<typeof entry> => entry !== undefined);
      if (inside.length > 0)
        result.push({
          type: 'group',
          name: item.name,
          ...(item.icon ? { icon: item.icon } : {}),
          collections: inside,
        });
    } else {
      const entry = take(item);
      if (entry) result.push({ type: 'collection', ...entry });
    }
  }
  for (const collection of collections) {
    if (!placed.has(collection)) result.push({ type: 'collection', collection });
  }
  return result;
}
