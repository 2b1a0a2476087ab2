import { createShopDataSource } from '../../http/test-fixtures/shop-services';
import { createPerCollectionCache } from './per-collection-cache';

describe('createPerCollectionCache', () => {
  it('computes each key once per collection and does not cache failures', () => {
    const dataSource = createShopDataSource();
    const calls: string[] = [];
    const cache = createPerCollectionCache<{ key: string }>();
    const parse = (name: string, key: string) =>
      cache(dataSource.getCollection(name), key, () => {
        calls.push(`${name}:${key}`);
        if (key === 'bad') throw new Error('bad key');
        return { key };
      });
    expect(parse('orders', 'a')).toBe(parse('orders', 'a'));
    parse('customers', 'a');
    expect(() => parse('orders', 'bad')).toThrow('bad key');
    expect(() => parse('orders', 'bad')).toThrow('bad key');
    expect(calls).toEqual(['orders:a', 'customers:a', 'orders:bad', 'orders:bad']);
  });
});
