/**
 * A change of the table's view (page, size, sort, search, filters, segment): any change but the
 * page itself goes back to page 1, so the user never lands past the end of a narrower list.
 */
import type { ViewState } from '../../../protocol';

export function viewChange(
  view: ViewState,
  next: Partial<ViewState>,
  resetPage: boolean,
): ViewState {
  return { ...view, ...(resetPage ? { page: 1 } : {}), ...next };
}
