/**
 * The table's selection of records, as pure functions (use-selection.ts keeps it in React state):
 * some ids, or every record of the view (across pages) but some excluded ids.
 */
import type { ConditionTree, Selection } from '../../../protocol';
import { formatNumber } from '../format';

/** How much of the page is selected: the select-all box's state. */
export type PageSelection = 'none' | 'some' | 'all';

/** `all: false`: `ids` are the selected records; `all: true`: `ids` are the excluded ones. */
export interface TableSelection {
  all: boolean;
  ids: ReadonlySet<string>;
}

export const NO_SELECTION: TableSelection = { all: false, ids: new Set() };

/** Whether a record is selected. */
export function isSelected(selection: TableSelection, id: string): boolean {
  return selection.all !== selection.ids.has(id);
}

/** The selected records of the page (what the row boxes show). */
export function selectedOnPage(
  rows: readonly { id: string }[],
  selection: TableSelection,
): ReadonlySet<string> {
  if (!selection.all) return selection.ids;
  return new Set(rows.filter((row) => isSelected(selection, row.id)).map((row) => row.id));
}

export function pageSelection(
  rows: readonly { id: string }[],
  selected: ReadonlySet<string>,
): PageSelection {
  if (!rows.some((row) => selected.has(row.id))) return 'none';
  return rows.every((row) => selected.has(row.id)) ? 'all' : 'some';
}

/** `selected` with `id` checked or not (a new set). */
export function withToggled(selected: ReadonlySet<string>, id: string, checked: boolean) {
  const next = new Set(selected);
  if (checked) next.add(id);
  else next.delete(id);
  return next;
}

/** A row's box checked or not: unchecking a row while all are selected excludes it. */
export function toggled(selection: TableSelection, id: string, checked: boolean): TableSelection {
  return { all: selection.all, ids: withToggled(selection.ids, id, selection.all !== checked) };
}

/** The select-all box: every row of the page, or nothing. */
export function selectPage(rows: readonly { id: string }[], checked: boolean): Set<string> {
  return checked ? new Set(rows.map((row) => row.id)) : new Set();
}

/** How many records are selected (`total`: the view's count, when known). */
export function selectedCount(selection: TableSelection, total: number | null | undefined) {
  if (!selection.all) return selection.ids.size;
  return Math.max(0, (total ?? 0) - selection.ids.size);
}

/** "20,000" in en-US, "20 000" in fr-FR: numbers as the Console writes them everywhere. */
export function formatCount(count: number): string {
  return formatNumber(count);
}

/** "1 record" / "3 records" / "20,000 records". */
export function recordCount(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'record' : 'records'}`;
}

/**
 * The banner above the rows: offered once the whole page is selected and the view has more
 * records; then saying that all are selected. `undefined`: no banner.
 */
export function selectAllBanner({
  selection,
  page,
  rows,
  total,
  name,
}: {
  selection: TableSelection;
  page: PageSelection;
  rows: number;
  total: number | null | undefined;
  /** The records' plural name: "orders". */
  name: string;
}): { text: string; button: string; selectAll: boolean } | undefined {
  if (selection.all) {
    const excluded = selection.ids.size;
    return {
      text: `All ${formatCount(total ?? 0)} ${name} are selected${excluded ? ` (${formatCount(excluded)} excluded)` : ''}.`,
      button: 'Clear selection',
      selectAll: false,
    };
  }
  if (page !== 'all' || typeof total !== 'number' || total <= rows) return undefined;
  return {
    text: `All ${formatCount(rows)} on this page are selected.`,
    button: `Select all ${formatCount(total)} ${name}`,
    selectAll: true,
  };
}

/**
 * The selection as the agent reads it (§6.9): the ids, or all the view's records (its filter,
 * search and segment; a related tab's parent) but the excluded ids, with the count to show.
 */
export function tableBulkSelection(
  selection: TableSelection,
  view: { filters?: ConditionTree; search?: string; segment?: string },
  related: { parent: string; parentId: string; relation: string } | undefined,
  total: number | null | undefined,
): Selection {
  return {
    ids: [...selection.ids],
    allRecords: selection.all,
    count: selectedCount(selection, total),
    filters: view.filters,
    search: view.search || undefined,
    segment: view.segment,
    parent: related
      ? { collection: related.parent, id: related.parentId, relation: related.relation }
      : undefined,
  };
}
