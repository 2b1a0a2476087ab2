/**
 * The keyboard of a table's rows (row-keys.ts): one Tab stop for all the rows (a roving
 * tabindex: the active row has `tabIndex=0`, the others and the links, buttons and boxes inside
 * rows `-1`), arrows/Home/End/PageUp/PageDown move, Enter opens, Space selects.
 */
import {
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
} from 'react';
import { clampActive, rowKeyEffect } from './row-keys';

const ROW = 'tr[data-record-id]';

export function useRowKeys({
  count,
  page,
  onOpen,
  onSelect,
}: {
  /** Rows of the page. */
  count: number;
  /** Changes with each new page of rows: the first row takes the Tab stop again. */
  page: unknown;
  onOpen(index: number): void;
  onSelect(index: number): void;
}) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [state, setState] = useState({ page, active: 0 });
  let active = state.active;
  if (state.page !== page) {
    active = 0;
    setState({ page, active });
  }
  active = clampActive(active, count);

  // The controls inside rows stay clickable but out of the Tab order (the row keys reach them).
  useLayoutEffect(() => {
    bodyRef.current
      ?.querySelectorAll<HTMLElement>(
        `${ROW} a[href], ${ROW} button, ${ROW} input, ${ROW} [tabindex="0"]`,
      )
      .forEach((element) => {
        if (element.tabIndex !== -1) element.tabIndex = -1;
      });
  });

  const rows = () => [...(bodyRef.current?.querySelectorAll<HTMLElement>(ROW) ?? [])];
  const handlers = useRef({ onOpen, onSelect });
  handlers.current = { onOpen, onSelect };

  const onKeyDown = useCallback((event: KeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const row = event.target as HTMLElement;
    if (!row.matches?.(ROW)) return;
    // → reaches the row's cells edited in place (EditableCell.tsx).
    if (event.key === 'ArrowRight') {
      const cell = row.querySelector<HTMLElement>('[data-editable-cell]');
      if (cell) {
        event.preventDefault();
        cell.focus();
      }
      return;
    }
    const all = rows();
    const effect = rowKeyEffect(event.key, all.indexOf(row), all.length);
    if (!effect) return;
    event.preventDefault();
    if (effect.type === 'focus') {
      setState((was) => ({ ...was, active: effect.index }));
      all[effect.index]!.focus();
    } else if (effect.type === 'open') handlers.current.onOpen(effect.index);
    else handlers.current.onSelect(effect.index);
  }, []);

  // A row clicked or reached otherwise becomes the row of the Tab stop.
  const onFocus = useCallback((event: FocusEvent<HTMLElement>) => {
    const row = (event.target as HTMLElement).closest?.<HTMLElement>(ROW);
    if (!row) return;
    const index = rows().indexOf(row);
    if (index >= 0) setState((was) => (was.active === index ? was : { ...was, active: index }));
  }, []);

  return { bodyRef, active, onKeyDown, onFocus };
}
