/**
 * The table's selection (use-selection.ts) with what is derived from it: the select-all box's
 * state, the selection as the agent reads it (the view as its subset query), and the banner
 * offering every record of the view. A change of filter, search or segment clears it.
 */
import type { ConditionTree } from '../../../protocol';
import type { ListSource } from '../../data';
import { pageSelection, selectAllBanner, tableBulkSelection } from './selection';
import { useSelection } from './use-selection';

export function useTableSelection({
  rows,
  page,
  view,
  related,
  total,
  name,
}: {
  rows: readonly { id: string }[];
  /** Changes with each new page of rows. */
  page: unknown;
  view: { filters?: ConditionTree; search?: string; segment?: string };
  related: ListSource['related'];
  total: number | null | undefined;
  /** The records' plural name: "orders". */
  name: string;
}) {
  const scope = JSON.stringify([view.filters ?? null, view.search ?? '', view.segment ?? null]);
  const picked = useSelection(rows, page, scope);
  const onPage = pageSelection(rows, picked.selected);
  return {
    ...picked,
    onPage,
    bulk: tableBulkSelection(picked.selection, view, related, total),
    banner: selectAllBanner({
      selection: picked.selection,
      page: onPage,
      rows: rows.length,
      total,
      name,
    }),
  };
}
