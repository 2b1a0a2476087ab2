/**
 * Opening a record of the table: the list it was opened from is kept (list-context.ts) for the
 * record page's previous/next, then the record's page opens. The callback is stable, so memoized
 * rows do not re-render with each page.
 */
import { useCallback, useRef } from 'react';
import { useNavigate } from 'react-router';
import { humanize, type AgentRecord } from '../../../protocol';
import { saveListContext } from './list-context';
import { recordPath } from '../../data-paths';

export function useOpenRecord({
  collection,
  rows,
  params,
  base,
}: {
  collection: string;
  rows: AgentRecord[];
  params: URLSearchParams;
  base: string;
}): (record: AgentRecord) => void {
  const navigate = useNavigate();
  const openRef = useRef<(record: AgentRecord) => void>(() => undefined);
  openRef.current = (record: AgentRecord) => {
    saveListContext(collection, {
      ids: rows.map((r) => r.id),
      search: params.toString(),
      label: humanize(collection),
    });
    navigate(recordPath(base, collection, record.id));
  };
  return useCallback((record: AgentRecord) => openRef.current(record), []);
}
