/**
 * The view of a table (page, size, sort, search, filter, segment) in the address, under the
 * table's prefix (related tabs have one), and kept beyond leaving the list (use-list-memory.ts).
 */
import { useSearchParams } from 'react-router';
import { DEFAULT_VIEW, readView, writeView, type ViewState } from '../../../protocol';
import { useListMemory } from '../use-list-memory';
import { viewChange } from './view-change';

export type SetView = (next: Partial<ViewState>, resetPage?: boolean, replace?: boolean) => void;

export function useTableView({
  workspace,
  user,
  collection,
  prefix,
  remember,
  defaults,
}: {
  workspace: string;
  user: number;
  collection: string;
  prefix: string;
  /** The top-level list of a collection remembers its view; related tabs do not. */
  remember: boolean;
  /** The sort and page size of the team's layout, when the address sets none. */
  defaults?: { sort?: string; size?: number };
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
  if (defaults?.sort && !params.has(`${prefix}sort`)) view.sort = defaults.sort;
  if (defaults?.size && !params.has(`${prefix}size`)) view.size = defaults.size;
  const setView: SetView = (next, resetPage = true, replace = false) => {
    const written = writeView(params, viewChange(view, next, resetPage), prefix);
    // The standard page size is left out of the address, which would mean the layout's.
    const size = next.size ?? view.size;
    if (defaults?.size && size === DEFAULT_VIEW.size) written.set(`${prefix}size`, String(size));
    setParams(written, { replace });
  };
  return { params, view, setView };
}
