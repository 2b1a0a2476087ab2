/**
 * The state of a table view (sort, page, page size, search, filter, segment) as URL search
 * parameters, so a view is a link people can share and the back button restores it.
 */
import type { ConditionTree } from './conditions';
import { compactTree, parseTree } from './conditions';

export interface ViewState {
  sort?: string;
  page: number;
  size: number;
  search: string;
  filters?: ConditionTree;
  segment?: string;
}

export const PAGE_SIZES = [15, 25, 50, 100] as const;
export const DEFAULT_VIEW: ViewState = { page: 1, size: 25, search: '' };

function positive(text: string | null, fallback: number): number {
  const number = Number(text);
  return Number.isInteger(number) && number > 0 ? number : fallback;
}

export function readView(params: URLSearchParams, prefix = ''): ViewState {
  const sort = params.get(`${prefix}sort`) ?? undefined;
  const segment = params.get(`${prefix}segment`) ?? undefined;
  const filters = parseTree(params.get(`${prefix}filters`));
  return {
    page: positive(params.get(`${prefix}page`), DEFAULT_VIEW.page),
    size: Math.min(positive(params.get(`${prefix}size`), DEFAULT_VIEW.size), 500),
    search: params.get(`${prefix}q`) ?? '',
    ...(sort ? { sort } : {}),
    ...(segment ? { segment } : {}),
    ...(filters ? { filters } : {}),
  };
}

/** Writes the view into a copy of `params`, leaving out what is at its default. */
export function writeView(params: URLSearchParams, view: ViewState, prefix = ''): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | undefined) => {
    if (value === undefined || value === '') next.delete(`${prefix}${key}`);
    else next.set(`${prefix}${key}`, value);
  };
  const filters = compactTree(view.filters);
  set('sort', view.sort);
  set('page', view.page === DEFAULT_VIEW.page ? undefined : String(view.page));
  set('size', view.size === DEFAULT_VIEW.size ? undefined : String(view.size));
  set('q', view.search.trim() || undefined);
  set('filters', filters ? JSON.stringify(filters) : undefined);
  set('segment', view.segment);
  return next;
}

/** Cycles a column's sort: none → ascending → descending → none. */
export function nextSort(current: string | undefined, field: string): string | undefined {
  if (current === field) return `-${field}`;
  if (current === `-${field}`) return undefined;
  return field;
}
