/**
 * The state of a table view (sort, page, page size, search, filter, segment) as URL search
 * parameters, so a view is a link people can share and the back button restores it.
 */
import type { ConditionTree } from './conditions';
import { compactTree, parseTree } from './conditions';
import type { SchemaCollection } from './schema';
import { primaryKeys } from './schema';

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

/**
 * The order a list is read in: the view's sort, else every sortable primary-key column
 * ascending, which the agent applies when a list is read without a sort (`id`, or `a,b` for a
 * composite key). `undefined` when neither applies.
 */
export function effectiveSort(
  collection: SchemaCollection,
  sort: string | undefined,
): string | undefined {
  if (sort) return sort;
  const keys = primaryKeys(collection).filter((field) => field.isSortable !== false);
  return keys.length > 0 ? keys.map((field) => field.field).join(',') : undefined;
}

/**
 * How a column header shows the list's order: `ascending`/`descending` on the column(s) the list
 * is sorted by (the primary key when the view sets no sort), `none` elsewhere.
 */
export function headerSort(
  collection: SchemaCollection,
  sort: string | undefined,
  field: string,
): 'ascending' | 'descending' | 'none' {
  for (const clause of effectiveSort(collection, sort)?.split(',') ?? []) {
    if (clause === field) return 'ascending';
    if (clause === `-${field}`) return 'descending';
  }
  return 'none';
}

/**
 * The sort after a click on a column header: like {@link nextSort}, starting from the order
 * the header shows (a click on the primary key of an unsorted list sorts it descending).
 */
export function clickedSort(
  collection: SchemaCollection,
  sort: string | undefined,
  field: string,
): string | undefined {
  if (!sort && headerSort(collection, sort, field) === 'ascending') return `-${field}`;
  return nextSort(sort, field);
}
