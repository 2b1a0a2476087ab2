/**
 * Render time of a page, from the decoded answer to the painted frame (README: performance), in
 * the browser suite's build only (test-hooks.ts): `ms` to the frame with the rows in view, split
 * in waiting for React to start (`queuedMs`), React's render and commit (`renderMs`) and the
 * frame; `allRowsMs` to the frame with every row of the page mounted.
 */
import { useLayoutEffect, useRef, type RefObject } from 'react';
import { afterNextPaint } from '../../after-paint';
import { receivedAt } from '../../data';
import { markTiming, recordRender, TEST_HOOKS, type RenderMeasure } from '../../test-hooks';

export function useRenderMeasure(
  page: unknown[] | undefined,
  collection: string,
  allMounted: boolean,
  tableRef: RefObject<HTMLTableElement | null>,
): void {
  const renderStart = useRef<{ data?: unknown; at: number }>({ at: 0 });
  const measured = useRef<{ data?: unknown; entry?: RenderMeasure }>({});
  if (TEST_HOOKS && page && renderStart.current.data !== page) {
    renderStart.current = { data: page, at: performance.now() };
  }
  useLayoutEffect(() => {
    const start = page && receivedAt.get(page);
    if (!TEST_HOOKS || start === undefined) return;
    const began = renderStart.current.at;
    const committed = performance.now();
    const entry: RenderMeasure = {
      collection,
      rows: page!.length,
      ms: 0,
      queuedMs: began - start,
      renderMs: committed - began,
    };
    measured.current = { data: page, entry };
    return afterNextPaint(() => {
      entry.ms = performance.now() - start;
      recordRender(entry);
      if (
        performance.getEntriesByName('canopy:signed-in').length &&
        !performance.getEntriesByName('canopy:first-screen').length
      ) {
        markTiming('canopy:first-screen');
      }
      tableRef.current?.setAttribute('data-render-ms', entry.ms.toFixed(1));
    });
  }, [page, collection, tableRef]);
  useLayoutEffect(() => {
    const start = page && receivedAt.get(page);
    const { data, entry } = measured.current;
    if (!TEST_HOOKS || !allMounted || start === undefined || data !== page || !entry) return;
    return afterNextPaint(() => {
      entry.allRowsMs = performance.now() - start;
    });
  }, [allMounted, page]);
}
