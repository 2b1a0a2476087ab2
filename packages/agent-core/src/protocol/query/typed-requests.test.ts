import { createShopDataSource } from '../../http/test-fixtures/shop-services';
import { projectionOf, readRequestedProjection } from './projection';
import { parseSort, toSort } from './sort';

// The typed requests the MCP tools build are checked as the query string's parameters are: the
// same result, the same refusal.
describe('typed read requests', () => {
  const orders = createShopDataSource().getCollection('orders');

  it('builds the sort of a clause as the query string reads it', () => {
    expect(toSort(orders, { field: 'customer.fullName', ascending: false })).toEqual(
      parseSort(orders, '-customer.fullName'),
    );
    expect(() => toSort(orders, { field: 'nope', ascending: false })).toThrow(
      'Invalid sort: -nope',
    );
  });

  it('builds the projection of named fields as fields[...] reads it', () => {
    const query = { 'fields[orders]': 'reference,customer', 'fields[customer]': 'fullName' };
    expect(
      projectionOf(orders, ['reference', 'customer'], (relation) =>
        relation === 'customer' ? ['fullName'] : undefined,
      ),
    ).toEqual(readRequestedProjection(orders, query, undefined));
    expect(() => projectionOf(orders, ['customer'], () => undefined)).toThrow(
      "Invalid projection: the relation 'customer' needs the fields to read in 'fields[customer]'",
    );
  });
});
