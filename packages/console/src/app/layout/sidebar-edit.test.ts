import { describe, expect, it } from 'vitest';
import { applySidebar } from './apply-layout';
import { groupIcons, setGroupIcon, setSidebar, sidebarRows } from './sidebar-edit';

const collections = ['orders', 'customers', 'products', 'reviews'];

describe('sidebar edits', () => {
  it('starts from today’s order and writes groups where their first collection is', () => {
    const rows = sidebarRows(null, collections);
    expect(rows.map((row) => row.collection)).toEqual(collections);
    const layout = setSidebar(null, [
      { collection: 'products', displayName: ' Catalogue ' },
      { collection: 'orders', group: 'Sales' },
      { collection: 'reviews', hidden: true },
      { collection: 'customers', group: 'Sales' },
    ]);
    expect(layout.sidebar.items).toEqual([
      { type: 'collection', collection: 'products', displayName: 'Catalogue' },
      {
        type: 'group',
        name: 'Sales',
        collections: [
          { type: 'collection', collection: 'orders' },
          { type: 'collection', collection: 'customers' },
        ],
      },
      { type: 'collection', collection: 'reviews', hidden: true },
    ]);
    expect(applySidebar(layout, collections)).toEqual([
      { type: 'collection', collection: 'products', displayName: 'Catalogue' },
      {
        type: 'group',
        name: 'Sales',
        collections: [{ collection: 'orders' }, { collection: 'customers' }],
      },
    ]);
  });

  it('reads a layout back as rows, leaving out collections the user may not browse', () => {
    const layout = setSidebar(null, [
      { collection: 'secret' },
      { collection: 'reviews', group: 'Shop', displayName: 'Opinions' },
    ]);
    expect(sidebarRows(layout, collections)).toEqual([
      { collection: 'reviews', group: 'Shop', displayName: 'Opinions' },
      { collection: 'orders' },
      { collection: 'customers' },
      { collection: 'products' },
    ]);
  });

  it('keeps collection icons, and group icons by the group’s name', () => {
    let layout = setSidebar(null, [
      { collection: 'orders', group: 'Sales', icon: 'receipt' },
      { collection: 'customers', group: 'Sales' },
    ]);
    layout = setGroupIcon(layout, 'Sales', 'shopping-cart');
    expect(groupIcons(layout)).toEqual({ Sales: 'shopping-cart' });
    // Moving a collection rewrites the items: the group keeps its icon.
    layout = setSidebar(layout, [
      { collection: 'customers', group: 'Sales' },
      { collection: 'orders', group: 'Sales', icon: 'receipt' },
    ]);
    expect(layout.sidebar.items).toEqual([
      {
        type: 'group',
        name: 'Sales',
        icon: 'shopping-cart',
        collections: [
          { type: 'collection', collection: 'customers' },
          { type: 'collection', collection: 'orders', icon: 'receipt' },
        ],
      },
    ]);
    expect(sidebarRows(layout, ['orders'])).toEqual([
      { collection: 'orders', group: 'Sales', icon: 'receipt' },
    ]);
    expect(groupIcons(setGroupIcon(layout, 'Sales', undefined))).toEqual({});
  });
});
