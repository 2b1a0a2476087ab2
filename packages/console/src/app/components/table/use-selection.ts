/**
 * The selection of a table (selection.ts): the page's rows, or every record of the view but some
 * exclusions. A page selection is cleared when a new page of rows arrives; an all-records one
 * lasts across pages until the view (filter, search, segment) changes. Callbacks are stable
 * across renders, so memoized rows re-render only when their own box changes.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  NO_SELECTION,
  selectPage,
  selectedOnPage,
  toggled,
  type TableSelection,
} from './selection';

export function useSelection(rows: readonly { id: string }[], page: unknown, scope = '') {
  const [selection, setSelection] = useState<TableSelection>(NO_SELECTION);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  useEffect(() => setSelection((was) => (was.all || !was.ids.size ? was : NO_SELECTION)), [page]);
  useEffect(() => setSelection(NO_SELECTION), [scope]);
  const toggle = useCallback(
    (id: string, checked: boolean) => setSelection((was) => toggled(was, id, checked)),
    [],
  );
  const setAll = useCallback(
    (checked: boolean) => setSelection({ all: false, ids: selectPage(rowsRef.current, checked) }),
    [],
  );
  const selectAll = useCallback(() => setSelection({ all: true, ids: new Set() }), []);
  const clear = useCallback(() => setSelection(NO_SELECTION), []);
  const selected = useMemo(() => selectedOnPage(rows, selection), [rows, selection]);
  return { selection, selected, toggle, setAll, selectAll, clear };
}
