/**
 * Saved views and team segments (issue 32, docs/public-api.md §7) against the table's view state
 * (view-state.ts): what a saved view sets in a list, the body that saves the list as it is, the
 * address that opens a view (`view=<id>` beside its state, so the link can be shared), and the
 * platform's refusals in the user's words. Plain TypeScript, no React.
 */
import {
  LAYOUT_EDITOR_LEVELS,
  type PlainConditionTree,
  type SavedView,
} from '@canopy/platform-protocol';
import type { ConditionTree } from './conditions';
import { compactTree, parseTree } from './conditions';
import { PlatformError } from './platform-client';
import { DEFAULT_VIEW, readView, writeView, type ViewState } from './view-state';

/** The address parameter naming the saved view a list shows. */
export const VIEW_PARAM = 'view';

/** What `POST …/views` and `PATCH …/views/{id}` take (docs/public-api.md §7): a view's own fields. */
export type SavedViewBody = Pick<
  SavedView,
  'name' | 'collection' | 'filter' | 'search' | 'sort' | 'columns' | 'segment' | 'teamName'
>;

/** A view's sort (`field`, `-field`; the first clause of `a,b`) as the platform keeps it. */
export function sortToWire(sort: string | undefined): SavedViewBody['sort'] {
  const first = sort?.split(',')[0]?.trim();
  if (!first || first === '-') return null;
  return first.startsWith('-')
    ? { field: first.slice(1), ascending: false }
    : { field: first, ascending: true };
}

/** The platform's sort as the table's `sort` parameter. */
export function sortFromWire(sort: SavedView['sort']): string | undefined {
  if (!sort?.field) return undefined;
  return sort.ascending ? sort.field : `-${sort.field}`;
}

/** A condition tree of the platform (aggregators in either case) as the table's filter. */
export function treeFromWire(
  tree: PlainConditionTree | null | undefined,
): ConditionTree | undefined {
  if (!tree) return undefined;
  // parseTree checks the shape; the lower-case aggregators are the table's.
  return compactTree(
    parseTree(
      JSON.stringify(tree).replace(
        /"aggregator":"(And|Or)"/g,
        (_, a: string) => `"aggregator":"${a.toLowerCase()}"`,
      ),
    ),
  );
}

/** What opening `saved` sets in the list: its state from the first page, the page size kept. */
export function savedViewState(saved: SavedView, current: ViewState): ViewState {
  const sort = sortFromWire(saved.sort);
  const filters = treeFromWire(saved.filter);
  return {
    page: DEFAULT_VIEW.page,
    size: current.size,
    search: saved.search ?? '',
    ...(sort ? { sort } : {}),
    ...(filters ? { filters } : {}),
    ...(saved.segment ? { segment: saved.segment } : {}),
  };
}

/** The body saving the list as it is under `name`, personal (`teamName` null) or shared. */
export function savedViewBody(
  view: ViewState,
  columns: string[] | undefined,
  target: { name: string; collection: string; teamName: string | null },
): SavedViewBody {
  const filter = compactTree(view.filters);
  return {
    name: target.name.trim(),
    collection: target.collection,
    filter: (filter as PlainConditionTree | undefined) ?? null,
    search: view.search.trim() || null,
    sort: sortToWire(view.sort),
    columns: columns && columns.length > 0 ? [...columns] : null,
    segment: view.segment ?? null,
    teamName: target.teamName,
  };
}

/** The address showing `saved` (its id and its state), other parameters kept. */
export function savedViewParams(
  params: URLSearchParams,
  saved: SavedView,
  prefix = '',
): URLSearchParams {
  const next = writeView(params, savedViewState(saved, readView(params, prefix)), prefix);
  next.set(`${prefix}${VIEW_PARAM}`, String(saved.id));
  return next;
}

/**
 * The address showing a segment as the menu opens it: the segment alone (no filter, no search, no
 * saved view), on the first page, the sort and page size kept.
 */
export function segmentParams(
  params: URLSearchParams,
  segment: string,
  prefix = '',
): URLSearchParams {
  const current = readView(params, prefix);
  const next = writeView(
    params,
    { page: DEFAULT_VIEW.page, size: current.size, search: '', sort: current.sort, segment },
    prefix,
  );
  next.delete(`${prefix}${VIEW_PARAM}`);
  return next;
}

/** The saved view the address names, if any. */
export function selectedViewId(params: URLSearchParams, prefix = ''): number | undefined {
  const id = Number(params.get(`${prefix}${VIEW_PARAM}`));
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/** Whether the list shows `saved` unchanged (same search, filter, sort and segment). */
export function showsSavedView(view: ViewState, saved: SavedView): boolean {
  const state = savedViewState(saved, view);
  const key = (v: ViewState) =>
    JSON.stringify([
      v.search.trim(),
      compactTree(v.filters) ?? null,
      v.sort ?? null,
      v.segment ?? null,
    ]);
  return key(view) === key(state);
}

/** The view of `collection` that `team` opens first, if one is set. */
export function teamDefaultView(
  views: readonly SavedView[],
  team: string,
  collection: string,
): SavedView | undefined {
  return views.find(
    (view) => view.collection === collection && view.defaultForTeams.includes(team),
  );
}

/** Whether a permission level edits team segments and default views. */
export function isLayoutEditor(permissionLevel: string): boolean {
  return (LAYOUT_EDITOR_LEVELS as readonly string[]).includes(permissionLevel);
}

/** Whether the caller may rename, update or delete `view`: its owner, or an admin. */
export function mayChangeView(view: SavedView, user: { id: number }, permissionLevel: string) {
  return permissionLevel === 'admin' || view.owner?.id === user.id;
}

/** A refusal of the platform about a view or a segment named `name`, in the user's words. */
export function layoutErrorText(error: unknown, what: 'view' | 'segment', name = ''): string {
  if (!(error instanceof PlatformError))
    return error instanceof Error ? error.message : String(error);
  const called = name ? ` “${name}”` : '';
  switch (error.status) {
    case 409:
      return what === 'view'
        ? `A view${called} already exists here: choose another name.`
        : `The team already has a segment${called} on this collection: choose another name.`;
    case 403:
      return what === 'view'
        ? `You may not change this view: only its owner or an admin can (${error.message})`
        : `You may not change this team's segments: it takes an admin, developer or editor (${error.message})`;
    case 400:
      return `The platform refused this ${what}: ${error.message}`;
    case 404:
      return `This ${what} no longer exists (${error.message})`;
    default:
      return error.message;
  }
}
