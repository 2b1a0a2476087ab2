/**
 * A new page mounts a screenful of rows first (rows are at least 32 px high) and the rest in the
 * tasks after that frame is painted: the rows in view paint without waiting for the others.
 */

/** Rows mounted in a new page's first frame: a screenful, at 32 px or more per row. */
export function firstRows(viewportHeight: number): number {
  return Math.max(20, Math.ceil(viewportHeight / 32));
}

/** Rows mounted per task after the first frame. */
export const LATER_ROWS = 40;

export interface Mounted {
  /** The page of rows these counts are for. */
  data: unknown;
  count: number;
}

/** After a painted frame: `LATER_ROWS` more rows of the same page (a new page starts over). */
export function mountMore(was: Mounted, page: unknown): Mounted {
  return was.data === page ? { ...was, count: was.count + LATER_ROWS } : was;
}
