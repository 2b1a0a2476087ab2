import { describe, expect, it } from 'vitest';
import { clampActive, PAGE_STEP, rowKeyEffect } from './row-keys';

describe('the keys of table rows', () => {
  it('move between rows with the arrows, stopping at both ends', () => {
    expect(rowKeyEffect('ArrowDown', 0, 5)).toEqual({ type: 'focus', index: 1 });
    expect(rowKeyEffect('ArrowDown', 4, 5)).toEqual({ type: 'focus', index: 4 });
    expect(rowKeyEffect('ArrowUp', 3, 5)).toEqual({ type: 'focus', index: 2 });
    expect(rowKeyEffect('ArrowUp', 0, 5)).toEqual({ type: 'focus', index: 0 });
  });

  it('jump to the first and last rows with Home and End', () => {
    expect(rowKeyEffect('Home', 3, 25)).toEqual({ type: 'focus', index: 0 });
    expect(rowKeyEffect('End', 3, 25)).toEqual({ type: 'focus', index: 24 });
  });

  it('move a page of rows with PageUp and PageDown, within the rows', () => {
    expect(rowKeyEffect('PageDown', 2, 100)).toEqual({ type: 'focus', index: 2 + PAGE_STEP });
    expect(rowKeyEffect('PageDown', 95, 100)).toEqual({ type: 'focus', index: 99 });
    expect(rowKeyEffect('PageUp', 15, 100)).toEqual({ type: 'focus', index: 15 - PAGE_STEP });
    expect(rowKeyEffect('PageUp', 3, 100)).toEqual({ type: 'focus', index: 0 });
  });

  it('open the row with Enter and select it with Space', () => {
    expect(rowKeyEffect('Enter', 2, 5)).toEqual({ type: 'open', index: 2 });
    expect(rowKeyEffect(' ', 2, 5)).toEqual({ type: 'select', index: 2 });
  });

  it('leave other keys, and an empty table, alone', () => {
    expect(rowKeyEffect('Tab', 0, 5)).toBeUndefined();
    expect(rowKeyEffect('a', 0, 5)).toBeUndefined();
    expect(rowKeyEffect('ArrowDown', 0, 0)).toBeUndefined();
  });

  it('keep the Tab stop on a row that exists when the rows change', () => {
    expect(clampActive(7, 5)).toBe(4);
    expect(clampActive(2, 5)).toBe(2);
    expect(clampActive(3, 0)).toBe(0);
  });
});
