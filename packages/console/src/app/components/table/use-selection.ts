/**
 * The selection of a table's page (selection.ts): cleared when a new page of rows arrives, and
 * callbacks stable across renders, so memoized rows re-render only when their own box changes.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { selectPage, withToggled } from './selection';

export function useSelection(rows: readonly { id: string }[], page: unknown) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  useEffect(() => setSelected((was) => (was.size ? new Set() : was)), [page]);
  const toggle = useCallback(
    (id: string, checked: boolean) => setSelected((was) => withToggled(was, id, checked)),
    [],
  );
  const setAll = useCallback(
    (checked: boolean) => setSelected(selectPage(rowsRef.current, checked)),
    [],
  );
  const clear = useCallback(() => setSelected(new Set()), []);
  return { selected, toggle, setAll, clear };
}
