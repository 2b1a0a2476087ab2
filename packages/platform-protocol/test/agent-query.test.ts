import {
  agentCountQuery,
  agentQueryEntries,
  queryString,
  selectionAttributes,
  selectionBody,
} from '../src';

describe('agentQueryEntries', () => {
  it('writes every list parameter in the protocol order with literal bracketed keys', () => {
    const entries = agentQueryEntries('orders', {
      timezone: 'Europe/Paris',
      fields: ['id', 'customer'],
      relationFields: { customer: ['name'], ignored: ['x'] },
      filters: { field: 'total', operator: 'greater_than', value: 10 },
      search: '  ada ',
      searchExtended: true,
      segment: 'Paid',
      sort: '-total',
      page: { number: 2, size: 15 },
    });
    expect(entries).toEqual([
      ['timezone', 'Europe/Paris'],
      ['fields[orders]', 'id,customer'],
      ['fields[customer]', 'name'],
      ['filters', '{"field":"total","operator":"greater_than","value":10}'],
      ['search', 'ada'],
      ['searchExtended', 'true'],
      ['segment', 'Paid'],
      ['sort', '-total'],
      ['page[number]', '2'],
      ['page[size]', '15'],
    ]);
    expect(queryString(entries.slice(0, 3))).toBe(
      'timezone=Europe%2FParis&fields[orders]=id%2Ccustomer&fields[customer]=name',
    );
  });

  it('leaves out blank search (and its searchExtended), empty fields and absent parts', () => {
    expect(
      agentQueryEntries('orders', { search: '  ', searchExtended: true, fields: [], page: {} }),
    ).toEqual([]);
  });

  it('sends a live SQL segment with its connection', () => {
    expect(
      agentQueryEntries('orders', {
        segmentQuery: 'select id from orders',
        connectionName: 'main',
      }),
    ).toEqual([
      ['segmentQuery', 'select id from orders'],
      ['connectionName', 'main'],
    ]);
  });

  it('keeps only the filtering parameters for the count route', () => {
    expect(
      agentCountQuery({
        timezone: 'UTC',
        fields: ['id'],
        sort: 'id',
        page: { number: 1, size: 5 },
        search: 'x',
        segment: 's',
      }),
    ).toEqual({ timezone: 'UTC', search: 'x', segment: 's' });
  });
});

describe('selectionAttributes', () => {
  it('sends explicit ids with an empty subset', () => {
    expect(selectionAttributes('orders', { ids: ['1', '2'] })).toEqual({
      collection_name: 'orders',
      ids: ['1', '2'],
      all_records: false,
      all_records_ids_excluded: [],
      all_records_subset_query: { filters: null, search: null, segment: null },
      parent_collection_name: null,
      parent_collection_id: null,
      parent_association_name: null,
    });
  });

  it('sends every record of the scope but the excluded ones, under a parent', () => {
    expect(
      selectionAttributes(
        'orders',
        { allRecords: true, excludedIds: ['7'] },
        {
          filters: { field: 'status', operator: 'equal', value: 'paid' },
          search: 'ada',
          searchExtended: true,
          segment: 'Big',
          timezone: 'UTC',
          parent: { collection: 'customers', id: '3', relation: 'orders' },
        },
      ),
    ).toEqual({
      collection_name: 'orders',
      ids: [],
      all_records: true,
      all_records_ids_excluded: ['7'],
      all_records_subset_query: {
        filters: '{"field":"status","operator":"equal","value":"paid"}',
        search: 'ada',
        searchExtended: true,
        segment: 'Big',
        timezone: 'UTC',
      },
      parent_collection_name: 'customers',
      parent_collection_id: '3',
      parent_association_name: 'orders',
    });
  });

  it('wraps the attributes with extra ones in an action-requests body', () => {
    const body = selectionBody('orders', { ids: ['1'] }, {}, { values: { a: 1 } });
    expect(body.data.type).toBe('action-requests');
    expect(body.data.attributes).toMatchObject({ ids: ['1'], values: { a: 1 } });
  });
});
