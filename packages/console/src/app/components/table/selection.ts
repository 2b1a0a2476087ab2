/**
 * The table's selection of records, as pure functions over a set of ids (use-selection.ts keeps
 * it in React state).
 */

/** How much of the page is selected: the select-all box's state. */
export type PageSelection = 'none' | 'some' | 'all';

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

/** The select-all box: every row of the page, or nothing. */
export function selectPage(rows: readonly { id: string }[], checked: boolean): Set<string> {
  return checked ? new Set(rows.map((row) => row.id)) : new Set();
}

/** "1 record" / "3 records". */
export function recordCount(count: number): string {
  return `${count} ${count === 1 ? 'record' : 'records'}`;
}
