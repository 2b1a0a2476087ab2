import type { SavedView } from '@canopy/platform-protocol';
import { describe, expect, it } from 'vitest';
import { PlatformError } from './platform-client';
import {
  isLayoutEditor,
  layoutErrorText,
  mayChangeView,
  savedViewBody,
  savedViewParams,
  savedViewState,
  segmentParams,
  selectedViewId,
  showsSavedView,
  sortFromWire,
  sortToWire,
  teamDefaultView,
  treeFromWire,
} from './saved-views';
import { readView, writeView, type ViewState } from './view-state';

const saved = (over: Partial<SavedView> = {}): SavedView => ({
  id: 7,
  name: 'Paid in Europe',
  collection: 'orders',
  filter: {
    aggregator: 'And',
    conditions: [
      { field: 'status', operator: 'equal', value: 'paid' },
      { field: 'country', operator: 'in', value: ['FR', 'DE'] },
    ],
  },
  search: 'acme',
  sort: { field: 'total', ascending: false },
  columns: ['id', 'status', 'total'],
  segment: 'Big orders',
  teamName: 'Europe',
  owner: { id: 1, email: 'admin@example.com' },
  defaultForTeams: [],
  createdAt: '2026-11-28T10:00:00.000Z',
  updatedAt: '2026-11-28T10:00:00.000Z',
  ...over,
});

describe('saved view sorts', () => {
  it('maps the table sort to the platform sort and back', () => {
    expect(sortToWire('total')).toEqual({ field: 'total', ascending: true });
    expect(sortToWire('-total')).toEqual({ field: 'total', ascending: false });
    expect(sortToWire('a,-b')).toEqual({ field: 'a', ascending: true });
    expect(sortToWire(undefined)).toBeNull();
    expect(sortFromWire({ field: 'total', ascending: false })).toBe('-total');
    expect(sortFromWire({ field: 'total', ascending: true })).toBe('total');
    expect(sortFromWire(null)).toBeUndefined();
  });
});

describe('saved view ↔ list state', () => {
  it('opens a view on its first page, keeping the page size', () => {
    const state = savedViewState(saved(), { page: 4, size: 50, search: 'old' });
    expect(state).toEqual({
      page: 1,
      size: 50,
      search: 'acme',
      sort: '-total',
      segment: 'Big orders',
      filters: {
        aggregator: 'and',
        conditions: [
          { field: 'status', operator: 'equal', value: 'paid' },
          { field: 'country', operator: 'in', value: ['FR', 'DE'] },
        ],
      },
    });
  });

  it('reads platform trees with either aggregator case', () => {
    expect(
      treeFromWire({ aggregator: 'Or', conditions: [{ field: 'a', operator: 'present' }] }),
    ).toEqual({
      field: 'a',
      operator: 'present',
      value: null,
    });
    expect(treeFromWire(null)).toBeUndefined();
  });

  it('saves the list as it is, leaving out what it does not set', () => {
    const view: ViewState = {
      page: 3,
      size: 25,
      search: '  ',
      sort: 'created_at',
      filters: {
        aggregator: 'and',
        conditions: [{ field: 'status', operator: 'equal', value: '' }],
      },
    };
    expect(
      savedViewBody(view, [], { name: ' Recent ', collection: 'orders', teamName: null }),
    ).toEqual({
      name: 'Recent',
      collection: 'orders',
      filter: null,
      search: null,
      sort: { field: 'created_at', ascending: true },
      columns: null,
      segment: null,
      teamName: null,
    });
  });

  it('round-trips: a saved body opens as the state it was saved from', () => {
    const view: ViewState = {
      page: 1,
      size: 25,
      search: 'acme',
      sort: '-total',
      segment: 'Big orders',
      filters: { field: 'status', operator: 'equal', value: 'paid' },
    };
    const body = savedViewBody(view, ['id', 'total'], {
      name: 'V',
      collection: 'orders',
      teamName: 'Europe',
    });
    const reopened = saved({ ...body, id: 3 });
    expect(savedViewState(reopened, view)).toEqual(view);
    expect(showsSavedView(view, reopened)).toBe(true);
    expect(showsSavedView({ ...view, search: 'other' }, reopened)).toBe(false);
  });
});

describe('saved view addresses', () => {
  it('writes the view id beside its state, keeping other parameters', () => {
    const params = new URLSearchParams('tab=details&page=5&size=50&q=old');
    const next = savedViewParams(params, saved());
    expect(next.get('view')).toBe('7');
    expect(next.get('tab')).toBe('details');
    expect(next.get('page')).toBeNull();
    expect(next.get('size')).toBe('50');
    expect(next.get('q')).toBe('acme');
    expect(next.get('sort')).toBe('-total');
    expect(next.get('segment')).toBe('Big orders');
    // Reloaded, the address gives back the view's state and its id.
    expect(readView(next)).toEqual(savedViewState(saved(), readView(params)));
    expect(selectedViewId(next)).toBe(7);
  });

  it('opens a segment alone, keeping the sort and the page size', () => {
    const params = new URLSearchParams(
      `view=7&page=3&size=50&sort=-id&q=acme&filters=${encodeURIComponent('{"field":"a","operator":"present"}')}`,
    );
    const next = segmentParams(params, 'Big orders');
    expect(Object.fromEntries(next)).toEqual({ size: '50', sort: '-id', segment: 'Big orders' });
  });

  it('reads no view id from a missing or bad parameter', () => {
    expect(selectedViewId(new URLSearchParams(''))).toBeUndefined();
    expect(selectedViewId(new URLSearchParams('view=abc'))).toBeUndefined();
    expect(selectedViewId(new URLSearchParams('view=-2'))).toBeUndefined();
    expect(
      selectedViewId(
        writeView(new URLSearchParams('r_view=4'), readView(new URLSearchParams())),
        'r_',
      ),
    ).toBe(4);
  });
});

describe('who does what', () => {
  it('finds the team default of a collection', () => {
    const views = [saved({ id: 1 }), saved({ id: 2, defaultForTeams: ['Europe'] })];
    expect(teamDefaultView(views, 'Europe', 'orders')?.id).toBe(2);
    expect(teamDefaultView(views, 'Operations', 'orders')).toBeUndefined();
    expect(teamDefaultView(views, 'Europe', 'products')).toBeUndefined();
  });

  it('lets editors edit segments and owners or admins change views', () => {
    expect(isLayoutEditor('editor')).toBe(true);
    expect(isLayoutEditor('admin')).toBe(true);
    expect(isLayoutEditor('user')).toBe(false);
    expect(mayChangeView(saved(), { id: 1 }, 'user')).toBe(true);
    expect(mayChangeView(saved(), { id: 2 }, 'user')).toBe(false);
    expect(mayChangeView(saved(), { id: 2 }, 'admin')).toBe(true);
  });

  it('says refusals in the user’s words', () => {
    const taken = new PlatformError(409, 'conflict', 'name taken');
    expect(layoutErrorText(taken, 'view', 'Paid')).toBe(
      'A view “Paid” already exists here: choose another name.',
    );
    expect(layoutErrorText(taken, 'segment', 'Paid')).toMatch(/already has a segment “Paid”/);
    expect(
      layoutErrorText(new PlatformError(403, 'forbidden', 'Only editors.'), 'segment'),
    ).toMatch(/admin, developer or editor/);
    expect(layoutErrorText(new PlatformError(400, 'invalid_body', 'filter is bad'), 'view')).toBe(
      'The platform refused this view: filter is bad',
    );
    expect(layoutErrorText(new Error('offline'), 'view')).toBe('offline');
  });
});
