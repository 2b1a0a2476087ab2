/**
 * The view of a table (page, size, sort, search, filter, segment) in the address, under the
 * table's prefix (related tabs have one), and kept beyond leaving the list (use-list-memory.ts).
 */
import { useSearchParams } from 'react-router';
import { readView, writeView, type ViewState } from '../../../protocol';
import { useListMemory } from '../use-list-memory';
import { viewChange } from './view-change';

export type SetView = (next: Partial<ViewState>, resetPage?: boolean, replace?: boolean) => void;

export function useTableView({
  workspace,
  user,
  collection,
  prefix,
  remember,
}: {
  workspace: string;
  user: number;
  collection: string;
  prefix: string;
  /** The top-level list of a collection remembers its view; related tabs do not. */
  remember: boolean;
}): { params: URLSearchParams; view: ViewState; setView: SetView } {
  const [addressParams, setParams] = useSearchParams();
  const params = useListMemory({
    enabled: remember,
    workspace,
    user,
    collection,
    params: addressParams,
    setParams,
  });
  const view = readView(params, prefix);
  const setView: SetView = (next, resetPage = true, replace = false) =>
    setParams(writeView(params, viewChange(view, next, resetPage), prefix), { replace });
  return { params, view, setView };
}
