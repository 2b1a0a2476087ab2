/** The columns a user chose for a collection (columns.ts), kept in localStorage. */
import { useEffect, useState } from 'react';
import type { SchemaCollection } from '../../../protocol';
import { availableColumns, columnsKey, defaultColumns, readColumns } from '../columns';

export function useColumnPrefs(workspace: string, user: number, collection: SchemaCollection) {
  const key = columnsKey(workspace, user, collection);
  const [visible, setVisible] = useState(() => readColumns(workspace, user, collection));
  useEffect(() => setVisible(readColumns(workspace, user, collection)), [key]);
  return {
    available: availableColumns(collection),
    visible,
    set(next: string[]) {
      localStorage.setItem(key, JSON.stringify(next));
      setVisible(next);
    },
    reset() {
      localStorage.removeItem(key);
      setVisible(defaultColumns(collection));
    },
  };
}
