/** Another view (page, sort, search…) starts at the top of the table's frame. */
import { useLayoutEffect, useRef } from 'react';
import { writeView, type ViewState } from '../../../protocol';

export function useScrollTopOnView(view: ViewState) {
  const frameRef = useRef<HTMLDivElement>(null);
  const viewKey = writeView(new URLSearchParams(), view).toString();
  useLayoutEffect(() => {
    // A block: `scrollTo` answers a promise in newer browsers, not an effect's clean-up.
    frameRef.current?.scrollTo({ top: 0 });
  }, [viewKey]);
  return frameRef;
}
