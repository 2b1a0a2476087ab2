/**
 * The view of a table (page, size, sort, search, filter, segment) in the address, under the
 * table's prefix (related tabs have one), and kept beyond leaving the list (use-list-memory.ts).
 */
import { useSearchParams } from 'react-router';
import { DEFAULT_VIEW, readView, VIEW_PARAM, writeView, type ViewState } from '../../../protocol';
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
  /**
   * The sort, page size and first segment of the team's layout, when the address sets none (the
   * segment: nor a saved view; layout/first-segment.tsx checks it exists).
   */
  defaults?: { sort?: string; size?: number; segment?: string };
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
  if (defaults?.segment && !params.has(`${prefix}segment`) && !params.has(`${prefix}${VIEW_PARAM}`))
    view.segment = defaults.segment;
  const setView: SetView = (next, resetPage = true, replace = false) => {
    const changed = viewChange(view, next, resetPage);
    const written = writeView(params, changed, prefix);
    // The standard page size is left out of the address, which would mean the layout's.
    const size = next.size ?? view.size;
    if (defaults?.size && size === DEFAULT_VIEW.size) written.set(`${prefix}size`, String(size));
    // So is "no segment", which would mean the layout's first segment: `segment=` says none.
    if (!changed.segment && (defaults?.segment || params.get(`${prefix}segment`) === ''))
      written.set(`${prefix}segment`, '');
    setParams(written, { replace });
  };
  return { params, view, setView };
}
