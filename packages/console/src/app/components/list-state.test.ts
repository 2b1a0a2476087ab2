import { describe, expect, it } from 'vitest';
import {
  lastViewKey,
  listPrefsKey,
  readListPrefs,
  restoredParams,
  viewQuery,
  writeListPrefs,
} from './list-state';
import { DEFAULT_VIEW } from '../../protocol';

/** An in-memory `Storage`. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('the settings a list keeps', () => {
  it('are keyed by project/environment, user and collection', () => {
    expect(listPrefsKey('shop/production', 7, 'orders')).toBe(
      'canopy.view.shop/production.7.orders',
    );
    expect(listPrefsKey('shop/staging', 7, 'orders')).not.toBe(
      listPrefsKey('shop/production', 7, 'orders'),
    );
    expect(listPrefsKey('shop/production', 8, 'orders')).not.toBe(
      listPrefsKey('shop/production', 7, 'orders'),
    );
    expect(lastViewKey('shop/production', 'orders')).not.toBe(
      lastViewKey('shop/production', 'customers'),
    );
  });

  it('round-trip the page size and sort', () => {
    const storage = memoryStorage();
    writeListPrefs(storage, 'k', { ...DEFAULT_VIEW, size: 50, sort: '-id', search: 'x', page: 3 });
    expect(readListPrefs(storage, 'k')).toEqual({ size: 50, sort: '-id' });
  });

  it('forget a cleared sort', () => {
    const storage = memoryStorage();
    writeListPrefs(storage, 'k', { ...DEFAULT_VIEW, sort: 'id' });
    writeListPrefs(storage, 'k', { ...DEFAULT_VIEW, size: 15 });
    expect(readListPrefs(storage, 'k')).toEqual({ size: 15 });
  });

  it('drop what is not valid (unknown page size, garbage, other types)', () => {
    const storage = memoryStorage();
    storage.setItem('a', JSON.stringify({ size: 37, sort: 5 }));
    storage.setItem('b', '{not json');
    storage.setItem('c', '"text"');
    expect(readListPrefs(storage, 'a')).toEqual({});
    expect(readListPrefs(storage, 'b')).toEqual({});
    expect(readListPrefs(storage, 'c')).toEqual({});
    expect(readListPrefs(storage, 'missing')).toEqual({});
  });

  it('never throw when the storage refuses to write', () => {
    const storage = memoryStorage();
    storage.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    expect(() => writeListPrefs(storage, 'k', DEFAULT_VIEW)).not.toThrow();
  });
});

describe('the view a list opens with', () => {
  const filters = JSON.stringify({ field: 'status', operator: 'equal', value: 'paid' });

  it('is the address when it sets a view', () => {
    expect(
      restoredParams(new URLSearchParams('size=50'), 'size=100&q=x', { size: 15 }),
    ).toBeUndefined();
  });

  it("is the tab's last view on a bare address (filter, search, page, size, sort)", () => {
    const last = new URLSearchParams({ q: 'ann', filters, page: '3', size: '50', sort: '-id' });
    const next = restoredParams(new URLSearchParams('tab=x'), last.toString(), { size: 15 });
    expect(Object.fromEntries(next!)).toEqual({
      tab: 'x',
      q: 'ann',
      filters,
      page: '3',
      size: '50',
      sort: '-id',
    });
  });

  it("is the user's page size and sort without a last view", () => {
    const next = restoredParams(new URLSearchParams(), null, { size: 100, sort: 'email' });
    expect(next?.toString()).toBe('sort=email&size=100');
  });

  it('is the default when nothing is kept, or only the defaults', () => {
    expect(restoredParams(new URLSearchParams(), null, {})).toBeUndefined();
    expect(restoredParams(new URLSearchParams(), '', { size: 25 })).toBeUndefined();
  });

  it('keeps only the view parameters as the last view', () => {
    expect(viewQuery(new URLSearchParams('tab=x&q=ann&size=25&page=2'))).toBe('page=2&q=ann');
  });
});
