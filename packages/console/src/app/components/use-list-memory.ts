/**
 * A collection list's memory (list-state.ts): on a bare address it opens on the tab's last view
 * or the user's page size and sort, and it keeps each view it shows.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { readView } from '../../protocol';
import {
  hasView,
  lastViewKey,
  listPrefsKey,
  readListPrefs,
  restoredParams,
  viewQuery,
  writeListPrefs,
} from './list-state';

/**
 * The parameters the list reads its view from: `params`, or the restored view while the address
 * catches up (so the first request is already the restored one). Only the top-level list of a
 * collection (`enabled`) remembers; related tabs keep their view in the address only.
 */
export function useListMemory({
  enabled,
  workspace,
  user,
  collection,
  params,
  setParams,
}: {
  enabled: boolean;
  workspace: string;
  user: number;
  collection: string;
  params: URLSearchParams;
  setParams(next: URLSearchParams, options: { replace: boolean }): void;
}): URLSearchParams {
  const prefsKey = listPrefsKey(workspace, user, collection);
  const lastKey = lastViewKey(workspace, collection);
  const [restored] = useState(() =>
    enabled
      ? restoredParams(
          params,
          sessionStorage.getItem(lastKey),
          readListPrefs(localStorage, prefsKey),
        )
      : undefined,
  );
  // Until the address shows a view, the restored one stands for it.
  const settled = useRef(!restored);
  if (!settled.current && hasView(params)) settled.current = true;

  useLayoutEffect(() => {
    if (restored) setParams(restored, { replace: true });
    // Once, when the list opens.
  }, []);

  const query = viewQuery(params);
  useEffect(() => {
    if (!enabled || !settled.current) return;
    try {
      sessionStorage.setItem(lastKey, query);
    } catch {
      // Storage refused: the list only forgets.
    }
    writeListPrefs(localStorage, prefsKey, readView(new URLSearchParams(query)));
  }, [enabled, query, lastKey, prefsKey]);

  return settled.current || !restored ? params : restored;
}
