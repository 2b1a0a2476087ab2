/**
 * The keyboard of a table's rows (one Tab stop for all of them, a roving tabindex): what a key
 * pressed on the focused row does. Pure, so it is tested without a browser.
 */

/** What a key does to the rows: focus another row, open the focused one, or (un)select it. */
export type RowKeyEffect =
  | { type: 'focus'; index: number }
  | { type: 'open'; index: number }
  | { type: 'select'; index: number };

/** Rows a PageUp/PageDown moves by. */
export const PAGE_STEP = 10;

/**
 * The effect of `key` pressed on row `index` of `count` rows, or `undefined` when the rows leave
 * the key alone (Tab, letters…). Moves stop at the first and last rows.
 */
export function rowKeyEffect(key: string, index: number, count: number): RowKeyEffect | undefined {
  if (count <= 0) return undefined;
  const at = Math.min(Math.max(index, 0), count - 1);
  const focus = (to: number): RowKeyEffect => ({
    type: 'focus',
    index: Math.min(Math.max(to, 0), count - 1),
  });
  switch (key) {
    case 'ArrowDown':
      return focus(at + 1);
    case 'ArrowUp':
      return focus(at - 1);
    case 'Home':
      return focus(0);
    case 'End':
      return focus(count - 1);
    case 'PageDown':
      return focus(at + PAGE_STEP);
    case 'PageUp':
      return focus(at - PAGE_STEP);
    case 'Enter':
      return { type: 'open', index: at };
    case ' ':
    case 'Spacebar':
      return { type: 'select', index: at };
    default:
      return undefined;
  }
}

/** The row that keeps the Tab stop when the rows change: the same index, within the new rows. */
export function clampActive(active: number, count: number): number {
  return count <= 0 ? 0 : Math.min(Math.max(active, 0), count - 1);
}
