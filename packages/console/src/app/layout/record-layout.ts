/**
 * How a team's layout (public API §7, `recordPage`) shapes a record page: its tabs in order —
 * tabs of fields in titled sections, and tabs of a related (to-many) collection — and the fields
 * read-only when the record is edited. Pure. Like every layout, it only orders and hides what the
 * user may see: a field or relation the schema leaves out stays out whatever the layout names.
 */
import type { LayoutSection, RecordPageLayout } from '@canopy/platform-protocol';

/** A tab of the record page as shown. */
export type PageTab =
  | { kind: 'fields'; key: string; title: string; sections: LayoutSection[] }
  | { kind: 'related'; key: string; title?: string; related: string };

/** The key of the page's first tab, whatever it is (`?tab=` absent). */
export const DETAILS = 'details';

type Unkeyed =
  | { kind: 'fields'; title: string; sections: LayoutSection[] }
  | { kind: 'related'; title?: string; related: string };

/** Keys for `?tab=`: `details` for the first, the relation's name, or `fields-<n>`. */
function keyed(tabs: Unkeyed[]): PageTab[] {
  return tabs.map((tab, index) => ({
    ...tab,
    key: index === 0 ? DETAILS : tab.kind === 'related' ? tab.related : `fields-${index}`,
  }));
}

function placed(sections: readonly LayoutSection[], known: Set<string>): LayoutSection[] {
  return sections
    .map((section) => ({ ...section, fields: section.fields.filter((f) => known.has(f)) }))
    .filter((section) => section.fields.length > 0);
}

/**
 * The tabs of a record page. `fields`: the fields the user sees on the page, in today's order;
 * `related`: the to-many relations the user may open, in schema order. Without a record page
 * layout: "Details" with every field, then every relation. With one: "Details" when it sets
 * `sections`, its `tabs` in order, then its `relatedTabs`; fields and relations it does not name
 * are not shown (the layout decides what goes where), except that a layout naming no relation
 * keeps them all, and a layout leaving no tab at all (everything it names is hidden from the user)
 * is today's page.
 */
export function applyRecordPage(
  page: RecordPageLayout | undefined,
  fields: readonly string[],
  related: readonly string[],
): PageTab[] {
  const known = new Set(fields);
  const relations = new Set(related);
  const today = keyed([
    { kind: 'fields', title: 'Details', sections: [{ fields: [...fields] }] },
    ...related.map((name) => ({ kind: 'related' as const, related: name })),
  ]);
  if (!page || (!page.sections && !page.tabs && !page.relatedTabs)) return today;
  const tabs: Unkeyed[] = [];
  const addFields = (title: string, sections: readonly LayoutSection[]) => {
    const shown = placed(sections, known);
    if (shown.length > 0) tabs.push({ kind: 'fields', title, sections: shown });
  };
  const shownRelated = new Set<string>();
  const addRelated = (name: string, title?: string) => {
    if (!relations.has(name) || shownRelated.has(name)) return;
    shownRelated.add(name);
    tabs.push({ kind: 'related', related: name, ...(title ? { title } : {}) });
  };
  if (page.sections) addFields('Details', page.sections);
  for (const tab of page.tabs ?? []) {
    if ('related' in tab) addRelated(tab.related, tab.title);
    else addFields(tab.title, tab.sections);
  }
  for (const name of page.relatedTabs ?? []) addRelated(name);
  const namesRelations =
    (page.relatedTabs ?? []).length > 0 || (page.tabs ?? []).some((tab) => 'related' in tab);
  if (!namesRelations) for (const name of related) addRelated(name);
  return tabs.length > 0 ? keyed(tabs) : today;
}

/** The fields the record page layout makes read-only when the record is edited. */
export function pageReadOnly(page: RecordPageLayout | undefined): string[] {
  return page?.readOnlyFields ?? [];
}
