import { describe, expect, it } from 'vitest';
import type { SchemaCollection } from '../../../protocol';
import { bulkConfirmText, bulkDoneMessage, bulkRight } from './bulk-change';
import { headerKind, SELECT_COLUMN, visibleFields } from './column-model';
import { csvFilename, exportableColumns, exportProgress } from './csv-export';
import { pageRange, rangeText } from './paging';
import { firstRows, LATER_ROWS, mountMore } from './progressive-rows';
import {
  pageSelection,
  recordCount,
  selectAllBanner,
  selectedCount,
  selectPage,
  tableBulkSelection,
  toggled,
  withToggled,
} from './selection';
import { viewChange } from './view-change';

const orders: SchemaCollection = {
  name: 'orders',
  fields: [
    { field: 'id', type: 'Number', isPrimaryKey: true, isSortable: true },
    { field: 'total', type: 'Number' },
    { field: 'full_name', type: 'String', isSortable: false, isVirtual: true },
    { field: 'customer', type: 'Number', reference: 'customers.id', relationship: 'BelongsTo' },
    { field: 'items', type: ['Number'], reference: 'items.id', relationship: 'HasMany' },
  ],
};

const rows = [{ id: '1' }, { id: '2' }, { id: '3' }];

describe('selection', () => {
  it('tells the select-all box none, some or all of the page', () => {
    expect(pageSelection(rows, new Set())).toBe('none');
    expect(pageSelection(rows, new Set(['9']))).toBe('none');
    expect(pageSelection(rows, new Set(['2']))).toBe('some');
    expect(pageSelection(rows, new Set(['1', '2', '3', '9']))).toBe('all');
  });

  it('toggles one id into a new set and selects or clears the page', () => {
    const before = new Set(['1']);
    const after = withToggled(before, '2', true);
    expect([...after]).toEqual(['1', '2']);
    expect([...before]).toEqual(['1']);
    expect([...withToggled(after, '1', false)]).toEqual(['2']);
    expect([...selectPage(rows, true)]).toEqual(['1', '2', '3']);
    expect(selectPage(rows, false).size).toBe(0);
    expect(recordCount(1)).toBe('1 record');
    expect(recordCount(3)).toBe('3 records');
    expect(recordCount(20000)).toBe('20,000 records');
  });
});

describe('paging', () => {
  it('gives the range shown and the page count', () => {
    expect(pageRange({ page: 3, size: 25 }, 25, 1204)).toEqual({
      first: 51,
      last: 75,
      pageCount: 49,
    });
    expect(pageRange({ page: 1, size: 25 }, 0, 0)).toEqual({ first: 0, last: 0, pageCount: 1 });
    expect(pageRange({ page: 2, size: 15 }, 4, null)).toEqual({
      first: 16,
      last: 19,
      pageCount: undefined,
    });
  });

  it('says the range with the total, while counting, or without a count', () => {
    const format = (n: number) => String(n);
    const range = pageRange({ page: 1, size: 25 }, 25, 1204);
    expect(rangeText(range, 25, 1204, false, format)).toBe('1–25 of 1204');
    expect(rangeText(range, 25, undefined, true, format)).toBe('1–25 of …');
    expect(rangeText(range, 25, null, false, format)).toBe(
      '1–25 (counting is off for this collection)',
    );
    expect(rangeText(pageRange({ page: 1, size: 25 }, 0, 0), 0, 0, false)).toBe('');
  });
});

describe('view changes', () => {
  const view = { page: 4, size: 25, search: 'ann', sort: '-id' };
  it('go back to page 1 unless only the page changes', () => {
    expect(viewChange(view, { size: 50 }, true)).toEqual({ ...view, size: 50, page: 1 });
    expect(viewChange(view, { page: 5 }, false)).toEqual({ ...view, page: 5 });
    expect(viewChange(view, { sort: 'id' }, false)).toEqual({ ...view, sort: 'id' });
  });
});

describe('column model', () => {
  it('keeps the chosen columns the collection has, in the chosen order', () => {
    expect(visibleFields(orders, ['total', 'gone', 'id']).map((f) => f.field)).toEqual([
      'total',
      'id',
    ]);
  });

  it('tells each header: select box, sort state, or why it cannot sort', () => {
    expect(headerKind(orders, undefined, SELECT_COLUMN)).toEqual({ kind: 'select' });
    expect(headerKind(orders, 'total', 'total')).toEqual({ kind: 'sortable', sorted: 'ascending' });
    expect(headerKind(orders, '-total', 'total')).toEqual({
      kind: 'sortable',
      sorted: 'descending',
    });
    expect(headerKind(orders, 'total', 'id')).toEqual({ kind: 'sortable', sorted: 'none' });
    expect(headerKind(orders, undefined, 'full_name')).toMatchObject({ kind: 'locked' });
    expect(headerKind(orders, undefined, 'customer')).toMatchObject({
      kind: 'locked',
      refusal: expect.stringMatching(/relation/),
    });
  });
});

describe('bulk changes', () => {
  it('word the notice, the confirmation and the right a refusal names', () => {
    expect(bulkDoneMessage('delete', 1)).toBe('1 record deleted.');
    expect(bulkDoneMessage('dissociate', 2)).toBe('2 records dissociated.');
    expect(bulkConfirmText('delete', 3)).toEqual({
      title: 'Delete records?',
      text: 'The 3 selected records are deleted for good. This cannot be undone.',
      button: 'Delete 3',
    });
    expect(bulkConfirmText('dissociate', 1)).toEqual({
      title: 'Dissociate records?',
      text: 'The 1 selected record stays, but is no longer linked to this record.',
      button: 'Dissociate',
    });
    expect(bulkRight('dissociate')).toBe('editEnabled');
    expect(bulkRight('delete-related')).toBe('deleteEnabled');
  });
});

describe('CSV export', () => {
  it('exports values and to-one relations, not to-many ones nor unknown columns', () => {
    expect(exportableColumns(orders, ['id', 'items', 'customer', 'gone', 'total'])).toEqual([
      'id',
      'customer',
      'total',
    ]);
    expect(csvFilename('orders', new Date('2026-11-28T23:59:00Z'))).toBe('orders-2026-11-28.csv');
    expect(exportProgress(2048)).toBe('2 KB');
  });
});

describe('progressive rows', () => {
  it('mounts a screenful first, then more rows of the same page only', () => {
    expect(firstRows(400)).toBe(20);
    expect(firstRows(1080)).toBe(34);
    const page = {};
    expect(mountMore({ data: page, count: 20 }, page)).toEqual({
      data: page,
      count: 20 + LATER_ROWS,
    });
    const stale = { data: page, count: 20 };
    expect(mountMore(stale, {})).toBe(stale);
  });
});

describe('selecting every record of the view', () => {
  const all = { all: true, ids: new Set<string>() };

  it('excludes the rows unchecked while all are selected, and counts the rest', () => {
    const one = toggled(all, '7', false);
    expect(one).toEqual({ all: true, ids: new Set(['7']) });
    expect(toggled(one, '7', true)).toEqual(all);
    expect(selectedCount(one, 20000)).toBe(19999);
    expect(selectedCount({ all: false, ids: new Set(['1', '2']) }, 20000)).toBe(2);
  });

  it('offers all the records once the page is selected, then says how many are', () => {
    const page = { all: false, ids: new Set(['1']) };
    const base = { rows: 15, total: 20000, name: 'orders' };
    expect(selectAllBanner({ ...base, selection: page, page: 'some' })).toBeUndefined();
    expect(selectAllBanner({ ...base, selection: page, page: 'all', total: 15 })).toBeUndefined();
    expect(selectAllBanner({ ...base, selection: page, page: 'all' })).toEqual({
      text: 'All 15 on this page are selected.',
      button: 'Select all 20,000 orders',
      selectAll: true,
    });
    expect(
      selectAllBanner({
        ...base,
        selection: { all: true, ids: new Set(['1', '2', '3']) },
        page: 'some',
      }),
    ).toEqual({
      text: 'All 20,000 orders are selected (3 excluded).',
      button: 'Clear selection',
      selectAll: false,
    });
  });

  it('sends the view as the subset query, the exclusions as ids, under a related tab parent', () => {
    expect(
      tableBulkSelection(
        { all: true, ids: new Set(['9']) },
        { search: '', segment: 'Big', filters: { field: 'a', operator: 'present' } },
        { parent: 'customers', parentId: '3', relation: 'orders' },
        100,
      ),
    ).toEqual({
      ids: ['9'],
      allRecords: true,
      count: 99,
      filters: { field: 'a', operator: 'present' },
      search: undefined,
      segment: 'Big',
      parent: { collection: 'customers', id: '3', relation: 'orders' },
    });
  });
});
