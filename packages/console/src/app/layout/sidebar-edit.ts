/**
 * Layout mode's edits of the sidebar (public API §7, `sidebar.items`), as pure functions. The
 * editor works on one row per collection, in order — its display name, icon, hidden or not, and
 * the group it sits in — and writes them back as items: a group appears where its first collection
 * is, and holds its collections in their order; a group keeps its icon while its name stays.
 */
import type { ConsoleLayout, SidebarCollection, SidebarGroup } from '@canopy/platform-protocol';

export interface SidebarRow {
  collection: string;
  displayName?: string;
  icon?: string;
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
      ...(item.icon ? { icon: item.icon } : {}),
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

/** The icon of each group of the layout's sidebar, by group name. */
export function groupIcons(layout: ConsoleLayout | null): Record<string, string> {
  const icons: Record<string, string> = {};
  for (const item of layout?.sidebar?.items ?? []) {
    if (item.type === 'group' && item.icon) icons[item.name] = item.icon;
  }
  return icons;
}

/** The layout with the icon of group `name` set (undefined: none). */
export function setGroupIcon(layout: ConsoleLayout | null, name: string, icon: string | undefined) {
  const items = (layout?.sidebar?.items ?? []).map((item) => {
    if (item.type !== 'group' || item.name !== name) return item;
    const { icon: _previous, ...rest } = item;
    return icon ? { ...rest, icon } : rest;
  });
  return { ...(layout ?? {}), sidebar: { items } } satisfies ConsoleLayout;
}

/** The layout with its sidebar made of `rows` (groups keep the icons they had by name). */
export function setSidebar(layout: ConsoleLayout | null, rows: readonly SidebarRow[]) {
  const icons = groupIcons(layout);
  const items: (SidebarCollection | SidebarGroup)[] = [];
  for (const row of rows) {
    const entry: SidebarCollection = {
      type: 'collection',
      collection: row.collection,
      ...(row.displayName?.trim() ? { displayName: row.displayName.trim() } : {}),
      ...(row.icon ? { icon: row.icon } : {}),
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
    else
      items.push({
        type: 'group',
        name: group,
        ...(icons[group] ? { icon: icons[group] } : {}),
        collections: [entry],
      });
  }
  return { ...(layout ?? {}), sidebar: { items } } satisfies ConsoleLayout;
}
