/**
 * Layout mode's edits of a record page (public API §7, `recordPage`), as pure functions. The
 * editor works on one list of tabs — of fields in sections, or of a related collection — and
 * writes it back as `recordPage.tabs` (the "Details" `sections` and `relatedTabs` of a page
 * written by hand become tabs in their place).
 */
import type {
  ConsoleLayout,
  FieldTab,
  LayoutSection,
  RecordPageLayout,
  RelatedTab,
} from '@canopy/platform-protocol';
import { applyRecordPage } from './record-layout';

export { moveItem } from './layout-edit';

export type EditedTab = FieldTab | RelatedTab;

/**
 * The tabs being edited: the layout's own tabs (a "Details" `sections` and `relatedTabs` made
 * tabs, fields and relations the editor cannot see left out, empty tabs kept: they are being
 * filled), or today's page without a record page layout.
 */
export function editedTabs(
  page: RecordPageLayout | undefined,
  fields: readonly string[],
  related: readonly string[],
): EditedTab[] {
  if (!page || (!page.sections && !page.tabs && !page.relatedTabs)) {
    return applyRecordPage(undefined, fields, related).map((tab) =>
      tab.kind === 'fields'
        ? { title: tab.title, sections: tab.sections }
        : { related: tab.related },
    );
  }
  const known = new Set(fields);
  const relations = new Set(related);
  const keep = (sections: LayoutSection[]) =>
    sections.map((section) => ({ ...section, fields: section.fields.filter((f) => known.has(f)) }));
  const tabs: EditedTab[] = [
    ...(page.sections ? [{ title: 'Details', sections: keep(page.sections) }] : []),
    ...(page.tabs ?? []).map((tab) =>
      'related' in tab ? tab : { ...tab, sections: keep(tab.sections) },
    ),
    ...(page.relatedTabs ?? []).map((name) => ({ related: name })),
  ];
  const named = tabs.some((tab) => 'related' in tab);
  const withRelations = named ? tabs : [...tabs, ...related.map((name) => ({ related: name }))];
  const seen = new Set<string>();
  return withRelations.filter((tab) => {
    if (!('related' in tab)) return true;
    if (!relations.has(tab.related) || seen.has(tab.related)) return false;
    seen.add(tab.related);
    return true;
  });
}

/** The layout without `collection`'s record page: today's page again. */
export function clearRecordPage(layout: ConsoleLayout | null, collection: string): ConsoleLayout {
  const base = layout ?? {};
  const { recordPage: _dropped, ...rest } = base.collections?.[collection] ?? {};
  return { ...base, collections: { ...base.collections, [collection]: rest } };
}

/** The layout with `collection`'s record page set to these tabs and read-only fields. */
export function setRecordPage(
  layout: ConsoleLayout | null,
  collection: string,
  tabs: EditedTab[],
  readOnlyFields: string[],
): ConsoleLayout {
  const base = layout ?? {};
  const current = base.collections?.[collection] ?? {};
  const recordPage: RecordPageLayout = {
    tabs,
    ...(readOnlyFields.length > 0 ? { readOnlyFields } : {}),
  };
  return {
    ...base,
    collections: { ...base.collections, [collection]: { ...current, recordPage } },
  };
}

/** Replaces item `index`. */
export function replaceItem<T>(items: readonly T[], index: number, item: T): T[] {
  return items.map((current, at) => (at === index ? item : current));
}

/** Removes item `index`. */
export function removeItem<T>(items: readonly T[], index: number): T[] {
  return items.filter((_, at) => at !== index);
}

/**
 * Sets the fields of one section; a field is in one place of the page only, so it leaves the
 * section it was in.
 */
export function setSectionFields(
  tabs: readonly EditedTab[],
  tabIndex: number,
  sectionIndex: number,
  fields: string[],
): EditedTab[] {
  const taken = new Set(fields);
  return tabs.map((tab, at) => {
    if ('related' in tab) return tab;
    const sections = tab.sections.map((section, index): LayoutSection =>
      at === tabIndex && index === sectionIndex
        ? { ...section, fields }
        : { ...section, fields: section.fields.filter((field) => !taken.has(field)) },
    );
    return { ...tab, sections };
  });
}

/** The fields placed nowhere on the page (not shown), in `fields`' order. */
export function unplacedFields(tabs: readonly EditedTab[], fields: readonly string[]): string[] {
  const placed = new Set(
    tabs.flatMap((tab) => ('related' in tab ? [] : tab.sections.flatMap((s) => s.fields))),
  );
  return fields.filter((field) => !placed.has(field));
}
