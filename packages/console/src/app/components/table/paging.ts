/** The page of a list the table shows, and the words for it (the range under the table). */
import { formatNumber } from '../format';

export interface PageRange {
  /** The first and last record shown, counted from 1 (0 and 0 on an empty page). */
  first: number;
  last: number;
  /** Pages in all, when the records are counted. */
  pageCount?: number;
}

export function pageRange(
  view: { page: number; size: number },
  rowCount: number,
  total: number | null | undefined,
): PageRange {
  const offset = (view.page - 1) * view.size;
  return {
    first: rowCount ? offset + 1 : 0,
    last: offset + rowCount,
    pageCount: typeof total === 'number' ? Math.max(1, Math.ceil(total / view.size)) : undefined,
  };
}

/** "1–25 of 1,204", "1–25 of …" while counting, or why there is no total. */
export function rangeText(
  range: PageRange,
  rowCount: number,
  total: number | null | undefined,
  counting: boolean,
  format: (value: number) => string = formatNumber,
): string {
  if (rowCount === 0) return '';
  const shown = `${format(range.first)}–${format(range.last)}`;
  if (typeof total === 'number') return `${shown} of ${format(total)}`;
  return counting ? `${shown} of …` : `${shown} (counting is off for this collection)`;
}
