// @vitest-environment happy-dom
import { act, renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentClient, AgentRecord, SchemaCollection } from '../../../protocol';
import { readListContext } from './list-context';
import { useBulkChange } from './use-bulk-change';
import { useColumnPrefs } from './use-column-prefs';
import { useOpenRecord } from './use-open-record';
import { useProgressiveRows } from './use-progressive-rows';
import { useSelection } from './use-selection';
import { useTableView } from './use-table-view';

const router =
  (entry = '/Shop/Production/data/orders') =>
  ({ children }: { children: ReactNode }) =>
    createElement(MemoryRouter, { initialEntries: [entry] }, children);

const record = (id: string): AgentRecord =>
  ({ id, values: {}, toOne: {} }) as unknown as AgentRecord;

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('useSelection', () => {
  it('toggles rows, selects the page, and clears when a new page arrives', () => {
    const rows = [{ id: '1' }, { id: '2' }];
    const { result, rerender } = renderHook(({ page }) => useSelection(rows, page), {
      initialProps: { page: 'p1' as unknown },
    });
    const toggle = result.current.toggle;
    act(() => result.current.toggle('2', true));
    expect([...result.current.selected]).toEqual(['2']);
    act(() => result.current.setAll(true));
    expect([...result.current.selected]).toEqual(['1', '2']);
    // Stable callbacks: memoized rows do not re-render for them.
    expect(result.current.toggle).toBe(toggle);
    rerender({ page: 'p2' });
    expect(result.current.selected.size).toBe(0);
  });

  it('selects every record across pages with exclusions, until the view changes', () => {
    const { result, rerender } = renderHook(
      ({ rows, page, scope }) => useSelection(rows, page, scope),
      { initialProps: { rows: [{ id: '1' }, { id: '2' }], page: 'p1' as unknown, scope: 'a' } },
    );
    act(() => result.current.selectAll());
    act(() => result.current.toggle('2', false));
    expect([...result.current.selected]).toEqual(['1']);
    rerender({ rows: [{ id: '3' }], page: 'p2', scope: 'a' });
    expect(result.current.selection).toEqual({ all: true, ids: new Set(['2']) });
    expect([...result.current.selected]).toEqual(['3']);
    rerender({ rows: [{ id: '3' }], page: 'p3', scope: 'b' });
    expect(result.current.selection.all).toBe(false);
    expect(result.current.selected.size).toBe(0);
  });
});

describe('useProgressiveRows', () => {
  it('mounts a screenful first, then the rest after painted frames', async () => {
    const page = {};
    const { result } = renderHook(() => useProgressiveRows(page, 200));
    expect(result.current.mountedCount).toBe(Math.max(20, Math.ceil(window.innerHeight / 32)));
    expect(result.current.allMounted).toBe(false);
    await waitFor(() => expect(result.current.allMounted).toBe(true), { timeout: 3000 });
  });
});

describe('useColumnPrefs', () => {
  const orders: SchemaCollection = {
    name: 'orders',
    fields: [
      { field: 'id', type: 'Number', isPrimaryKey: true },
      { field: 'total', type: 'Number' },
      { field: 'status', type: 'Enum', enums: ['paid'] },
    ],
  };

  it('keeps the chosen columns per user, and resets to the defaults', () => {
    const { result } = renderHook(() => useColumnPrefs('ws', 7, orders));
    const defaults = result.current.visible;
    expect(defaults).toContain('id');
    act(() => result.current.set(['total']));
    expect(result.current.visible).toEqual(['total']);
    const again = renderHook(() => useColumnPrefs('ws', 7, orders));
    expect(again.result.current.visible).toEqual(['total']);
    expect(renderHook(() => useColumnPrefs('ws', 8, orders)).result.current.visible).toEqual(
      defaults,
    );
    act(() => result.current.reset());
    expect(result.current.visible).toEqual(defaults);
  });
});

describe('useTableView', () => {
  it('reads the view under its prefix and writes changes back to page 1', () => {
    const { result } = renderHook(
      () => ({
        table: useTableView({
          workspace: 'ws',
          user: 7,
          collection: 'items',
          prefix: 'items.',
          remember: false,
        }),
        location: useLocation(),
      }),
      { wrapper: router('/Shop/Production/data/orders/1?items.page=3&items.size=50') },
    );
    expect(result.current.table.view).toMatchObject({ page: 3, size: 50, search: '' });
    act(() => result.current.table.setView({ search: 'ann' }));
    expect(result.current.table.view).toMatchObject({ page: 1, size: 50, search: 'ann' });
    expect(result.current.location.search).toBe('?items.size=50&items.q=ann');
    act(() => result.current.table.setView({ page: 2 }, false));
    expect(result.current.table.view.page).toBe(2);
  });
});

describe('useOpenRecord', () => {
  it('keeps the list it was opened from and opens the record page', () => {
    const rows = [record('1'), record('a/b')];
    const { result } = renderHook(
      () => ({
        open: useOpenRecord({
          collection: 'orders',
          rows,
          params: new URLSearchParams('search=ann'),
          base: '/Shop/Production/data',
        }),
        location: useLocation(),
      }),
      { wrapper: router() },
    );
    act(() => result.current.open(rows[1]!));
    expect(result.current.location.pathname).toBe('/Shop/Production/data/orders/a%2Fb');
    expect(readListContext('orders')).toEqual({
      ids: ['1', 'a/b'],
      search: 'search=ann',
      label: 'Orders',
    });
  });
});

describe('useBulkChange', () => {
  it('asks, deletes the selection, reports and closes the confirmation', async () => {
    const removed: unknown[] = [];
    let done = 0;
    const client = {
      remove: async (collection: string, selection: unknown) => {
        removed.push([collection, selection]);
      },
    } as unknown as AgentClient;
    const { result } = renderHook(() =>
      useBulkChange({
        client,
        collection: 'orders',
        related: undefined,
        selection: { ids: ['4', '5'] },
        count: 2,
        onDone: async () => {
          done += 1;
        },
      }),
    );
    act(() => result.current.ask('delete'));
    expect(result.current.confirm).toBe('delete');
    await act(() => result.current.run('delete'));
    expect(removed).toEqual([['orders', { ids: ['4', '5'] }]]);
    expect(done).toBe(1);
    expect(result.current.confirm).toBeUndefined();
  });

  it('keeps the selection when the agent refuses, and closes the confirmation', async () => {
    let done = 0;
    const client = {
      remove: async () => {
        throw new Error('No');
      },
    } as unknown as AgentClient;
    const { result } = renderHook(() =>
      useBulkChange({
        client,
        collection: 'orders',
        related: undefined,
        selection: { ids: ['4'] },
        count: 1,
        onDone: async () => {
          done += 1;
        },
      }),
    );
    act(() => result.current.ask('delete'));
    await act(() => result.current.run('delete'));
    expect(done).toBe(0);
    expect(result.current.confirm).toBeUndefined();
  });
});
