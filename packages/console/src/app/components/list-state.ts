/**
 * What a collection list remembers between visits: the page size and sort a user chose (per
 * project/environment, user and collection, in localStorage, so they outlive the tab), and the
 * whole last view of the tab (search, filter, page, page size, sort, segment, in sessionStorage),
 * so coming back to a list from the sidebar or another page shows it as it was left.
 * Pure functions over a `Storage`: the table calls them, the tests hand them a fake.
 */
import { PAGE_SIZES, readView, writeView, type ViewState } from '../../protocol';

/** The settings of a list kept across sessions (the visible columns are kept in columns.ts). */
export interface ListPrefs {
  size?: number;
  sort?: string;
}

/** The view parameters of a list in the address bar (without a prefix). */
const VIEW_KEYS = ['sort', 'page', 'size', 'q', 'filters', 'segment'];

/** `canopy.view.<project>/<environment>.<user>.<collection>`: the key of a list's settings. */
export function listPrefsKey(workspace: string, user: number, collection: string): string {
  return `canopy.view.${workspace}.${user}.${collection}`;
}

/** The key of a tab's last view of a collection (sessionStorage). */
export function lastViewKey(workspace: string, collection: string): string {
  return `canopy.last-view.${workspace}.${collection}`;
}

/** The stored settings, keeping only what is still valid (a page size the console offers). */
export function readListPrefs(storage: Storage, key: string): ListPrefs {
  try {
    const stored = JSON.parse(storage.getItem(key) ?? 'null') as Record<string, unknown> | null;
    if (!stored || typeof stored !== 'object') return {};
    const prefs: ListPrefs = {};
    if ((PAGE_SIZES as readonly unknown[]).includes(stored.size))
      prefs.size = stored.size as number;
    if (typeof stored.sort === 'string' && stored.sort) prefs.sort = stored.sort;
    return prefs;
  } catch {
    return {};
  }
}

/** Keeps the page size and sort of `view` (no sort: the list's default order). */
export function writeListPrefs(storage: Storage, key: string, view: ViewState): void {
  const prefs: ListPrefs = { size: view.size, ...(view.sort ? { sort: view.sort } : {}) };
  try {
    storage.setItem(key, JSON.stringify(prefs));
  } catch {
    // Storage full or refused (private mode): the list still works, it only forgets.
  }
}

/** Whether the address bar sets any part of the list's view. */
export function hasView(params: URLSearchParams): boolean {
  return VIEW_KEYS.some((key) => params.has(key));
}

/**
 * The address to show when a list opens with a bare address (the sidebar's link): the tab's last
 * view of it, else the user's kept page size and sort; `undefined` when the address already sets
 * a view or nothing is kept. Other parameters (a tab, …) are left as they are.
 */
export function restoredParams(
  params: URLSearchParams,
  lastView: string | null,
  prefs: ListPrefs,
): URLSearchParams | undefined {
  if (hasView(params)) return undefined;
  if (lastView) {
    const last = new URLSearchParams(lastView);
    if (hasView(last)) return keepNoSegment(last, writeView(params, readView(last)));
  }
  if (prefs.size === undefined && prefs.sort === undefined) return undefined;
  const view = readView(params);
  const next = writeView(params, {
    ...view,
    ...(prefs.size ? { size: prefs.size } : {}),
    ...(prefs.sort ? { sort: prefs.sort } : {}),
  });
  return hasView(next) ? next : undefined;
}

/** The view part of the address, to keep as the tab's last view (`''` for the default view). */
export function viewQuery(params: URLSearchParams): string {
  return keepNoSegment(params, writeView(new URLSearchParams(), readView(params))).toString();
}

/**
 * `segment=` (no segment, chosen over the layout's first segment) carried from `from` to `to`:
 * writeView leaves an empty segment out.
 */
function keepNoSegment(from: URLSearchParams, to: URLSearchParams): URLSearchParams {
  if (from.get('segment') === '') to.set('segment', '');
  return to;
}
