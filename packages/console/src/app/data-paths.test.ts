import { describe, expect, it } from 'vitest';
import {
  collectionPath,
  dataBase,
  duplicatePath,
  recordEditPath,
  recordPath,
  workspaceBase,
} from './data-paths';

describe('the Console data paths', () => {
  it("names a workspace's data base", () => {
    expect(dataBase('Shop', 'Production')).toBe('/Shop/Production/data');
    expect(dataBase('Acme & Co', 'eu/prod')).toBe('/Acme%20%26%20Co/eu%2Fprod/data');
    // The workspace's own pages (approvals, notes) sit beside its data, one segment per name.
    expect(workspaceBase('Acme & Co', 'eu/prod')).toBe('/Acme%20%26%20Co/eu%2Fprod');
  });

  it("names a collection's list and its pages", () => {
    expect(collectionPath('/Shop/Production/data', 'orders')).toBe('/Shop/Production/data/orders');
    expect(collectionPath('/p/e/data', 'orders', 'new')).toBe('/p/e/data/orders/new');
    expect(collectionPath('/p/e/data', 'orders', 'import')).toBe('/p/e/data/orders/import');
  });

  it('keeps each name and id one path segment', () => {
    expect(collectionPath('/p/e/data', 'line items')).toBe('/p/e/data/line%20items');
    expect(recordPath('/p/e/data', 'orders', 'a/1?b#c')).toBe('/p/e/data/orders/a%2F1%3Fb%23c');
  });

  it("names a record's edit form and the copy of a record", () => {
    expect(recordEditPath('/p/e/data', 'orders', 'a/1')).toBe('/p/e/data/orders/a%2F1/edit');
    expect(duplicatePath('/p/e/data', 'orders', 'a/1')).toBe('/p/e/data/orders/new?from=a%2F1');
  });

  it("opens one tab of a record's page", () => {
    expect(recordPath('/p/e/data', 'orders', '42', 'notes')).toBe('/p/e/data/orders/42?tab=notes');
    expect(recordPath('/p/e/data', 'orders', 'a/1', 'payments & refunds')).toBe(
      '/p/e/data/orders/a%2F1?tab=payments%20%26%20refunds',
    );
  });
});
