/**
 * Layout mode's edits of the sidebar (public API §7, `sidebar.items`), as pure functions. The
 * editor works on one row per collection, in order — its display name, hidden or not, and the
 * group it sits in — and writes them back as items: a group appears where its first collection
 * is, and holds its collections in their order.
 */
import type { ConsoleLayout, SidebarCollection, SidebarGroup } from '@canopy/platform-protocol';

export interface SidebarRow {
  collection: string;
  displayName?: string;
  hidden?: boolean;
  group?: string;
}

/** The rows being edited: the layout's order first, then the collections it does not name. */
export function sidebarRows(
  layout: ConsoleLayout | null,
  collections: readonly string[],
): SidebarRow[] {
  const known = new Set(collections);
  const rows: SidebarRow[] = [];
  const add = (item: SidebarCollection, group?: string) => {
    if (!known.has(item.collection) || rows.some((row) => row.collection === item.collection))
      return;
    rows.push({
      collection: item.collection,
      ...(item.displayName ? { displayName: item.displayName } : {}),
      ...(item.hidden ? { hidden: true } : {}),
      ...(group ? { group } : {}),
    });
  };
  for (const item of layout?.sidebar?.items ?? []) {
    if (item.type === 'group') for (const inside of item.collections) add(inside, item.name);
    else add(item);
  }
  for (const collection of collections) add({ type: 'collection', collection });
  return rows;
}

/** The layout with its sidebar made of `rows`. */
export function setSidebar(layout: ConsoleLayout | null, rows: readonly SidebarRow[]) {
  const items: (SidebarCollection | SidebarGroup)[] = [];
  for (const row of rows) {
    const entry: SidebarCollection = {
      type: 'collection',
      collection: row.collection,
      ...(row.displayName?.trim() ? { displayName: row.displayName.trim() } : {}),
      ...(row.hidden ? { hidden: true } : {}),
    };
    const group = row.group?.trim();
    if (!group) {
      items.push(entry);
      continue;
    }
    const existing = items.find(
      (item): item is SidebarGroup => item.type === 'group' && item.name === group,
    );
    if (existing) existing.collections.push(entry);
    else items.push({ type: 'group', name: group, collections: [entry] });
  }
  return { ...(layout ?? {}), sidebar: { items } } satisfies ConsoleLayout;
}
