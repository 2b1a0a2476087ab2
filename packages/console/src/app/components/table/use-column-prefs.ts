/**
 * The columns a user chose for a collection (columns.ts), kept in localStorage. Without a choice
 * of their own, the team layout's columns (layout/apply-layout.ts), else the defaults; while an
 * editor previews a layout draft, the draft's columns.
 */
import { useEffect, useMemo, useState } from 'react';
import type { SchemaCollection } from '../../../protocol';
import { availableColumns, columnsKey, defaultColumns, storedColumns } from '../columns';

export function useColumnPrefs(
  workspace: string,
  user: number,
  collection: SchemaCollection,
  layout: { columns: string[] | undefined; previewing: boolean } = {
    columns: undefined,
    previewing: false,
  },
) {
  const key = columnsKey(workspace, user, collection);
  const [stored, setStored] = useState(() => storedColumns(workspace, user, collection));
  useEffect(() => setStored(storedColumns(workspace, user, collection)), [key]);
  const defaults = useMemo(() => defaultColumns(collection), [collection]);
  const visible =
    (layout.previewing ? layout.columns : undefined) ?? stored ?? layout.columns ?? defaults;
  return {
    available: availableColumns(collection),
    visible,
    set(next: string[]) {
      localStorage.setItem(key, JSON.stringify(next));
      setStored(next);
    },
    reset() {
      localStorage.removeItem(key);
      setStored(undefined);
    },
  };
}
