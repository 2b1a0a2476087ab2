import {
  decodeList,
  decodeOne,
  encodeRecord,
  type JsonApiDocument,
} from '@canopy/platform-protocol';
import { describe, expect, it } from 'vitest';
import {
  AgentClient,
  AgentError,
  and,
  etagOf,
  compactTree,
  countLeaves,
  csvQuery,
  humanize,
  intersect,
  labelField,
  leaf,
  listQuery,
  nextSort,
  operatorsFor,
  or,
  parseSchema,
  parseTree,
  readView,
  selectionBody,
  targetCollection,
  writeView,
  type SchemaCollection,
} from './index';

const orders: SchemaCollection = {
  name: 'orders',
  fields: [
    { field: 'id', type: 'Number', isPrimaryKey: true },
    { field: 'reference', type: 'String' },
    { field: 'status', type: 'Enum', enums: ['paid', 'pending'] },
    { field: 'customer', type: 'Number', relationship: 'BelongsTo', reference: 'customers.id' },
    { field: 'items', type: ['Number'], relationship: 'HasMany', reference: 'items.order_id' },
  ],
};

describe('condition trees', () => {
  it('drops incomplete leaves, collapses one-child branches and shapes values', () => {
    const tree = and(
      leaf('status', 'in', 'paid, pending'),
      leaf('reference', 'contains', ''),
      or(leaf('customer:last_name', 'equal', 'Lovelace')),
      leaf('createdAt', 'previous_x_days', '7'),
      leaf('deliveredAt', 'blank', 'ignored'),
    );
    expect(compactTree(tree)).toEqual({
      aggregator: 'and',
      conditions: [
        { field: 'status', operator: 'in', value: ['paid', 'pending'] },
        { field: 'customer:last_name', operator: 'equal', value: 'Lovelace' },
        { field: 'createdAt', operator: 'previous_x_days', value: 7 },
        { field: 'deliveredAt', operator: 'blank', value: null },
      ],
    });
  });

  it('gives undefined for a tree with nothing complete, and counts leaves', () => {
    expect(compactTree(and(leaf('a', 'equal', ''), or()))).toBeUndefined();
    expect(compactTree(leaf('a', 'previous_x_days', 'seven'))).toBeUndefined();
    expect(countLeaves(and(leaf('a', 'present'), or(leaf('b', 'blank'), leaf('c', 'blank'))))).toBe(
      3,
    );
  });

  it('intersects optional trees', () => {
    expect(intersect(undefined, leaf('a', 'present'))).toEqual({
      field: 'a',
      operator: 'present',
      value: null,
    });
    expect(intersect(leaf('a', 'present'), leaf('b', 'equal', 1))).toEqual({
      aggregator: 'and',
      conditions: [
        { field: 'a', operator: 'present', value: null },
        { field: 'b', operator: 'equal', value: 1 },
      ],
    });
  });

  it('reads back only well-formed trees', () => {
    expect(parseTree('{"field":"a","operator":"equal","value":1}')).toEqual(leaf('a', 'equal', 1));
    expect(parseTree('{"aggregator":"xor","conditions":[]}')).toBeUndefined();
    expect(parseTree('not json')).toBeUndefined();
    expect(parseTree(null)).toBeUndefined();
  });
});

describe('operators', () => {
  it('offers the operators of the field type, intersected with what the agent supports', () => {
    expect(operatorsFor({ field: 'd', type: 'Date' })).toContain('previous_x_days');
    expect(operatorsFor({ field: 'd', type: 'Dateonly' })).not.toContain('before_x_hours_ago');
    expect(operatorsFor({ field: 'n', type: 'Number' })).not.toContain('contains');
    expect(operatorsFor({ field: 's', type: 'String' }, ['equal', 'contains', 'today'])).toEqual([
      'equal',
      'contains',
    ]);
    expect(operatorsFor({ field: 'x', type: 'String', isFilterable: false })).toEqual([]);
  });
});

describe('query strings', () => {
  it('writes bracketed keys literally and encodes values', () => {
    const query = listQuery(
      'orders',
      {
        fields: ['id', 'status', 'customer'],
        relationFields: { customer: ['fullName'], unused: ['x'] },
        sort: '-id',
        page: { number: 2, size: 25 },
        search: ' ada ',
        filters: leaf('status', 'equal', 'paid & co'),
      },
      'Europe/Paris',
    );
    expect(query).toBe(
      'timezone=Europe%2FParis&fields[orders]=id%2Cstatus%2Ccustomer&fields[customer]=fullName' +
        '&filters=%7B%22field%22%3A%22status%22%2C%22operator%22%3A%22equal%22%2C%22value%22%3A%22paid%20%26%20co%22%7D' +
        '&search=ada&sort=-id&page[number]=2&page[size]=25',
    );
  });

  it('builds the CSV query without pagination, with a header line', () => {
    const query = new URLSearchParams(
      csvQuery(
        'orders',
        { fields: ['id'], page: { number: 3, size: 10 }, sort: 'id' },
        'UTC',
        ['Id', 'Total, net'],
        'orders',
      ),
    );
    expect(query.get('page[number]')).toBeNull();
    expect(query.get('header')).toBe('Id,Total  net');
    expect(query.get('filename')).toBe('orders');
    expect(query.get('sort')).toBe('id');
  });

  it('builds a selection body for bulk deletes', () => {
    expect(
      selectionBody('orders', { ids: ['1', '2'], filters: leaf('a', 'present') }, 'UTC').data
        .attributes,
    ).toMatchObject({
      ids: ['1', '2'],
      all_records: false,
      all_records_subset_query: { filters: '{"field":"a","operator":"present","value":null}' },
    });
    expect(
      selectionBody('orders', { ids: ['3'], allRecords: true }, 'UTC').data.attributes,
    ).toMatchObject({ ids: [], all_records: true, all_records_ids_excluded: ['3'] });
  });
});

describe('JSON:API', () => {
  const document: JsonApiDocument = {
    data: [
      {
        type: 'orders',
        id: '101',
        attributes: { id: 101, reference: 'SO-0101' },
        relationships: {
          customer: { data: { type: 'customers', id: '12' } },
          payments: { links: { related: { href: '/forest/orders/101/relationships/payments' } } },
        },
      },
      {
        type: 'orders',
        id: '102',
        attributes: { id: 102, reference: 'SO-0102' },
        relationships: { customer: { data: null } },
      },
    ],
    included: [{ type: 'customers', id: '12', attributes: { id: 12, fullName: 'Ada Martin' } }],
    meta: { decorators: { '0': { id: '101', search: ['reference'] } } },
  };

  it('resolves to-one relations from included and reads search matches', () => {
    const [first, second] = decodeList(document);
    expect(first).toMatchObject({
      id: '101',
      values: { reference: 'SO-0101' },
      toOne: { customer: { id: '12', values: { fullName: 'Ada Martin' } } },
      matches: ['reference'],
    });
    expect(first!.toOne).not.toHaveProperty('payments');
    expect(second).toMatchObject({ toOne: { customer: null }, matches: [] });
  });

  it('reads a single record or null, and encodes bodies', () => {
    expect(decodeOne({ data: null })).toBeNull();
    expect(
      encodeRecord('orders', { status: 'paid' }, { customer: { type: 'customers', id: '1' } }, '5'),
    ).toEqual({
      data: {
        type: 'orders',
        id: '5',
        attributes: { status: 'paid' },
        relationships: { customer: { data: { type: 'customers', id: '1' } } },
      },
    });
  });
});

describe('schema', () => {
  it('reads the schema file and the JSON:API upload document', () => {
    expect(parseSchema({ collections: [orders] }).collections[0]!.name).toBe('orders');
    const uploaded = parseSchema({
      data: [
        {
          type: 'collections',
          id: 'orders',
          attributes: { name: 'orders', fields: orders.fields },
          relationships: {
            segments: { data: [{ type: 'segments', id: 'orders.Late' }] },
            actions: { data: [{ type: 'actions', id: 'orders-0-refund-order' }] },
          },
        },
      ],
      included: [
        { type: 'segments', id: 'orders.Late', attributes: { name: 'Late' } },
        {
          type: 'actions',
          id: 'orders-0-refund-order',
          attributes: { name: 'Refund order', endpoint: '/forest/_actions/orders/0/refund-order' },
        },
      ],
    });
    expect(uploaded.collections[0]!.segments).toEqual([{ id: 'orders.Late', name: 'Late' }]);
    // An action keeps its id: what an approval request names as its smart_action_id.
    expect(uploaded.collections[0]!.actions).toEqual([
      {
        id: 'orders-0-refund-order',
        name: 'Refund order',
        endpoint: '/forest/_actions/orders/0/refund-order',
      },
    ]);
    expect(() => parseSchema([])).toThrow(/neither/);
  });

  it('finds targets, label fields and human names', () => {
    expect(targetCollection(orders.fields[3]!)).toBe('customers');
    expect(labelField(orders)).toBe('reference');
    expect(humanize('customer@@@last_name')).toBe('Customer last name');
    expect(humanize('createdAt')).toBe('Created at');
  });
});

describe('view state', () => {
  it('round-trips through the URL and leaves defaults out', () => {
    const params = writeView(new URLSearchParams('tab=x'), {
      page: 2,
      size: 25,
      search: 'ada',
      sort: '-id',
      filters: leaf('status', 'equal', 'paid'),
    });
    expect(params.get('size')).toBeNull();
    expect(params.get('tab')).toBe('x');
    expect(readView(params)).toEqual({
      page: 2,
      size: 25,
      search: 'ada',
      sort: '-id',
      filters: { field: 'status', operator: 'equal', value: 'paid' },
    });
    expect(readView(new URLSearchParams('page=-1&size=abc'))).toMatchObject({ page: 1, size: 25 });
  });

  it('cycles the sort', () => {
    expect(nextSort(undefined, 'id')).toBe('id');
    expect(nextSort('id', 'id')).toBe('-id');
    expect(nextSort('-id', 'id')).toBeUndefined();
  });
});

describe('agent client', () => {
  function fakeFetch(answers: Response[], calls: { url: string; init?: RequestInit }[]) {
    return (async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      return answers.shift()!;
    }) as unknown as typeof fetch;
  }

  it('sends the token, and after a 401 asks for a new one and retries once', async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    let token = 'old';
    const client = new AgentClient({
      baseUrl: 'http://agent.test/',
      timezone: 'UTC',
      getToken: () => token,
      onUnauthorized: async () => {
        token = 'new';
        return true;
      },
      fetch: fakeFetch(
        [
          new Response('{"errors":[{"detail":"Authentication Error"}]}', { status: 401 }),
          new Response('{"count":3}'),
        ],
        calls,
      ),
    });
    expect(await client.count('orders', {})).toBe(3);
    expect(
      calls.map((call) => (call.init?.headers as Record<string, string>).authorization),
    ).toEqual(['Bearer old', 'Bearer new']);
    expect(calls[0]!.url).toBe('http://agent.test/forest/orders/count?timezone=UTC');
  });

  it('turns error answers into AgentError with the agent detail', async () => {
    const client = new AgentClient({
      baseUrl: 'http://agent.test',
      timezone: 'UTC',
      getToken: () => 't',
      fetch: fakeFetch(
        [
          new Response(
            '{"errors":[{"name":"ValidationError","detail":"The given value has a wrong type for \\"total\\"","status":400}]}',
            { status: 400 },
          ),
          new Response('{"errors":[{"name":"ForbiddenError","detail":"Forbidden"}]}', {
            status: 403,
          }),
          new Response('{"meta":{"count":"deactivated"}}'),
        ],
        [],
      ),
    });
    await expect(client.update('orders', '1', { total: 'x' })).rejects.toMatchObject({
      status: 400,
      errorName: 'ValidationError',
      message: 'The given value has a wrong type for "total"',
    });
    const forbidden = await client.get('orders', '1').catch((error: AgentError) => error);
    expect(forbidden).toBeInstanceOf(AgentError);
    expect((forbidden as AgentError).message).toMatch(/role does not allow/);
    expect(await client.count('orders', {})).toBeNull();
  });

  it('keeps the entity tag of a record read, sends it as If-Match, and reads a 412 conflict', async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const record = '{"data":{"type":"orders","id":"1","attributes":{"id":1,"status":"paid"}}}';
    const conflict412 = {
      name: 'PreconditionFailedError',
      detail: 'The record changed since you read it',
      status: 412,
      data: { etag: '"def"', current: { id: 1, status: 'refunded' } },
    };
    const answers = [
      new Response(record, { headers: { etag: '"abc"' } }),
      new Response(JSON.stringify({ errors: [conflict412] }), { status: 412 }),
      new Response(record),
    ];
    const options = { baseUrl: 'http://agent.test', timezone: 'UTC', getToken: () => 't' };
    const client = new AgentClient({ ...options, fetch: fakeFetch(answers, calls) });
    const read = await client.get('orders', '1');
    expect(etagOf(read)).toBe('"abc"');
    const conflict = await client
      .update('orders', '1', { status: 'shipped' }, etagOf(read))
      .catch((error: AgentError) => error);
    expect((calls[1]!.init!.headers as Record<string, string>)['if-match']).toBe('"abc"');
    expect(conflict).toMatchObject({
      status: 412,
      data: { etag: '"def"', current: { id: 1, status: 'refunded' } },
    });
    // Without a tag, no condition; a record read without one has none.
    const again = await client.update('orders', '1', { status: 'shipped' });
    expect((calls[2]!.init!.headers as Record<string, string>)['if-match']).toBeUndefined();
    expect(etagOf(again)).toBeUndefined();
  });
});
