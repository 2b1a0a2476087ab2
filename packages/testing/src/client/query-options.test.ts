import { serializeQueryOptions, toSnakeCase } from './query-options';

describe('serializeQueryOptions', () => {
  it('sends filters snake_case, sort, pagination, search and relation fields as the front end does', () => {
    expect(
      serializeQueryOptions('orders', {
        filters: {
          aggregator: 'And',
          conditions: [
            { field: 'total', operator: 'GreaterThan', value: 10 },
            { field: 'status', operator: 'not_i_contains', value: 'x' },
          ],
        },
        sort: { field: 'paidAt', ascending: false },
        search: 'ada',
        shouldSearchInRelation: true,
        fields: ['id', 'customer@@@fullName', 'customer@@@email'],
        pagination: { size: 5, number: 2 },
      }),
    ).toEqual({
      'fields[orders]': 'id,customer',
      'fields[customer]': 'fullName,email',
      filters: JSON.stringify({
        aggregator: 'and',
        conditions: [
          { field: 'total', operator: 'greater_than', value: 10 },
          { field: 'status', operator: 'not_i_contains', value: 'x' },
        ],
      }),
      search: 'ada',
      searchExtended: 'true',
      sort: '-paidAt',
      'page[number]': '2',
      'page[size]': '5',
    });
  });

  it('keeps flattened fields of the collection itself as fields', () => {
    expect(
      serializeQueryOptions(
        'customers',
        { fields: ['id', 'address@@@city', 'company@@@name'] },
        new Set(['id', 'address@@@city']),
      ),
    ).toEqual({
      'fields[customers]': 'id,address@@@city,company',
      'fields[company]': 'name',
    });
  });

  it('sends nothing without options', () => {
    expect(serializeQueryOptions('orders', undefined)).toEqual({});
    expect(toSnakeCase('PreviousXDaysToDate')).toBe('previous_x_days_to_date');
  });
});
