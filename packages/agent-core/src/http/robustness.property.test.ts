import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

import express from 'express';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';

import type { SqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';

import { createAgentRouter } from './create-agent-router';
import { ShopWithActions } from './test-fixtures/action-collection';
import { openPostgresShop } from './test-fixtures/postgres-shop';
import {
  TEST_AUTH_SECRET,
  TEST_CLAIMS,
  bearer,
  createTestServices,
} from './test-fixtures/shop-services';

/**
 * Throws thousands of random and mutated requests at a running router and checks the promises of
 * the issue: never a 500, never a stack trace, every JSON error in the documented envelope,
 * no unhandled rejection, and no partial write (a refused request leaves the data unchanged).
 */

const COLLECTIONS = [
  'orders',
  'customers',
  'payments',
  'products',
  'orderProducts',
  'nope',
  '',
  '%E2%82%AC',
  'orders.csv',
];
const IDS = [
  '101',
  '1',
  '999',
  'abc',
  '1|2',
  '',
  '%00',
  '7b3f0d2c-1d6e-4a8e-9a51-3f4b2c1d0e9f',
  '-1',
  '1e400',
  'count',
];
const RELATIONS = ['payments', 'products', 'customer', 'orders', 'tags', 'nope', 'payments.csv'];
const ACTION_PATHS = [
  '0/mark-as-paid',
  '1/refund-partial-',
  '2/notify',
  '3/open-payments',
  '4/export-invoice',
  '5/ship',
  '6/archive-all',
  '9/nope',
  'x/y',
];

const validFilter = fc.record({
  field: fc.constantFrom(
    'id',
    'reference',
    'status',
    'total',
    'paidAt',
    'tags',
    'customer:fullName',
    'nope',
    'customer',
  ),
  operator: fc.constantFrom(
    'equal',
    'in',
    'greater_than',
    'contains',
    'today',
    'previous_x_days',
    'blank',
    'includes_all',
    'match',
    'Like',
    'unknown_op',
  ),
  value: fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.string(),
    fc.array(fc.oneof(fc.string(), fc.integer())),
    fc.boolean(),
  ),
});
const filters = fc.oneof(
  validFilter.map((leaf) => JSON.stringify(leaf)),
  fc.array(validFilter, { maxLength: 3 }).map((conditions) =>
    JSON.stringify({
      aggregator: fc.sample(fc.constantFrom('and', 'or', 'AND', 'xor'), 1)[0],
      conditions,
    }),
  ),
  fc.json(),
  fc.string(),
);

const saneQuery = fc.record(
  {
    timezone: fc.constant('Europe/Paris'),
    filters: fc.constantFrom(
      '{"field":"status","operator":"equal","value":"paid"}',
      '{"aggregator":"or","conditions":[{"field":"total","operator":"greater_than","value":"20"},{"field":"customer:fullName","operator":"contains","value":"a"}]}',
    ),
    sort: fc.constantFrom('id', '-total'),
    'page[size]': fc.constantFrom('1', '15'),
    'fields[orders]': fc.constantFrom('id,reference,customer'),
    'fields[customer]': fc.constant('fullName'),
    header: fc.constant('a,b'),
  },
  { requiredKeys: ['timezone'] },
);

const wildQuery = fc.record(
  {
    timezone: fc.constantFrom('UTC', 'Europe/Paris', 'Mars/Olympus', '', 'America/New_York'),
    filters,
    sort: fc.constantFrom('id', '-reference', 'customer.fullName', 'nope', '-', ',', 'tags'),
    'page[number]': fc.oneof(fc.integer({ min: -5, max: 5 }).map(String), fc.string()),
    'page[size]': fc.oneof(
      fc.integer({ min: -1, max: 100 }).map(String),
      fc.constant('1e9'),
      fc.string(),
    ),
    'fields[orders]': fc.constantFrom(
      'id,reference',
      'customer',
      'payments',
      'nope',
      '',
      'reference,customer',
    ),
    'fields[customer]': fc.constantFrom('fullName', 'nope', ''),
    search: fc.string(),
    segment: fc.constantFrom('Unpaid', 'nope', ''),
    header: fc.string(),
    delete: fc.constantFrom('true', 'false', ''),
    segmentQuery: fc.constantFrom('SELECT id FROM orders', 'DROP TABLE x', ''),
  },
  { requiredKeys: [] },
);

const selectionBody = fc
  .record(
    {
      ids: fc.oneof(fc.array(fc.constantFrom(...IDS)), fc.string(), fc.constant(null)),
      all_records: fc.oneof(fc.boolean(), fc.string()),
      all_records_ids_excluded: fc.oneof(fc.array(fc.constantFrom(...IDS)), fc.integer()),
      all_records_subset_query: fc.oneof(fc.record({ filters }, { requiredKeys: [] }), fc.json()),
      values: fc.oneof(
        fc.dictionary(
          fc.constantFrom('Payment method', 'Assigned to', 'Receipt', 'carrier'),
          fc.oneof(fc.string(), fc.integer(), fc.constant('data:x;base64,QQ==')),
        ),
        fc.json(),
      ),
      fields: fc.array(
        fc.record({
          field: fc.string(),
          value: fc.json(),
          reference: fc.constantFrom('customers.id', 'x', undefined),
        }),
      ),
      changed_field: fc.string(),
      search_field: fc.constantFrom('carrier', 'nope'),
      parent_collection_name: fc.constantFrom('customers', 'nope'),
      parent_collection_id: fc.constantFrom(...IDS),
      parent_association_name: fc.constantFrom('orders', 'nope', 'customer'),
      requester_id: fc.integer(),
    },
    { requiredKeys: [] },
  )
  .map((attributes) => ({ data: { type: 'action-requests', attributes } }));

const recordBody = fc
  .record(
    {
      type: fc.constantFrom('orders', 'customers'),
      id: fc.constantFrom(...IDS),
      attributes: fc.oneof(
        fc.record(
          {
            reference: fc.oneof(fc.string(), fc.integer()),
            status: fc.constantFrom('paid', 'refunded', 3),
            total: fc.oneof(fc.double(), fc.string()),
            tags: fc.oneof(fc.array(fc.string()), fc.string()),
            nope: fc.string(),
          },
          { requiredKeys: [] },
        ),
        fc.json(),
      ),
      relationships: fc.oneof(
        fc.record({
          customer: fc.record({
            data: fc.oneof(
              fc.constant(null),
              fc.record({ type: fc.constant('customers'), id: fc.constantFrom(...IDS) }),
            ),
          }),
        }),
        fc.json(),
      ),
    },
    { requiredKeys: [] },
  )
  .map((data) => ({ data }));

const body = fc.oneof(
  fc.constant(undefined),
  fc.constant(JSON.stringify({ data: { attributes: { ids: ['101'], values: {} } } })),
  fc.constant(
    JSON.stringify({ data: { type: 'orders', attributes: { reference: 'R', total: 1 } } }),
  ),
  selectionBody.map((value) => JSON.stringify(value)),
  recordBody.map((value) => JSON.stringify(value)),
  fc.json(),
  fc.string(),
  fc.constant('{"data":'),
  fc
    .record(
      {
        type: fc.constantFrom('Value', 'Pie', 'Line', 'Leaderboard', 'Objective', 'Smart'),
        aggregator: fc.constantFrom('Count', 'Sum', 'Nope'),
        aggregateFieldName: fc.constantFrom('total', 'nope', null),
        groupByFieldName: fc.constantFrom('status', 'paidAt', 'nope'),
        timeRange: fc.constantFrom('Month', 'Nope'),
        filter: filters,
        labelFieldName: fc.constantFrom('fullName', 'x'),
        relationshipFieldName: fc.constantFrom('orders', 'customer'),
        limit: fc.oneof(fc.integer(), fc.string()),
        query: fc.string(),
        connectionName: fc.constantFrom('main', 'x'),
        collectionNames: fc.array(fc.string()),
        renderingId: fc.oneof(fc.integer(), fc.string()),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
);

const wildPath = fc.oneof(
  fc.constantFrom(...COLLECTIONS).map((c) => `/${c}`),
  fc
    .tuple(fc.constantFrom(...COLLECTIONS), fc.constantFrom(...IDS))
    .map(([c, id]) => `/${c}/${id}`),
  fc.constantFrom(...COLLECTIONS).map((c) => `/${c}/count`),
  fc
    .tuple(fc.constantFrom(...COLLECTIONS), fc.constantFrom(...IDS), fc.constantFrom(...RELATIONS))
    .map(([c, id, r]) => `/${c}/${id}/relationships/${r}`),
  fc
    .tuple(fc.constantFrom(...COLLECTIONS), fc.constantFrom(...IDS), fc.constantFrom(...RELATIONS))
    .map(([c, id, r]) => `/${c}/${id}/relationships/${r}/count`),
  fc
    .tuple(fc.constantFrom(...IDS), fc.constantFrom('0', '1', '99', 'x'))
    .map(([id, index]) => `/orders/${id}/relationships/tags/${index}`),
  fc
    .tuple(
      fc.constantFrom(...ACTION_PATHS),
      fc.constantFrom('', '/hooks/load', '/hooks/change', '/hooks/search', '/hooks/nope'),
    )
    .map(([action, hook]) => `/_actions/orders/${action}${hook}`),
  fc.constantFrom(...COLLECTIONS).map((c) => `/stats/${c}`),
  fc.constantFrom(
    '/_charts/nope',
    '/_charts/orders/nope',
    '/_internal/capabilities',
    '/_internal/native_query',
    '/scope-cache-invalidation',
    '/authentication',
    '/authentication/callback',
    '/',
    '/a/b/c/d/e/f',
  ),
);

const query = fc.oneof(saneQuery, wildQuery);

const path = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      '/orders',
      '/orders/101',
      '/orders/count',
      '/orders.csv',
      '/orders/101/relationships/payments',
      '/orders/101/relationships/products/count',
      '/_actions/orders/0/mark-as-paid',
      '/_actions/orders/5/ship/hooks/load',
      '/stats/orders',
      '/customers/1',
    ),
    weight: 2,
  },
  { arbitrary: wildPath, weight: 3 },
);

const token = fc.oneof(
  { arbitrary: fc.constant('valid'), weight: 6 },
  {
    arbitrary: fc.constantFrom('none', 'missing', 'tampered', 'expired', 'other-secret', 'garbage'),
    weight: 1,
  },
);

function authorization(kind: string): string | undefined {
  switch (kind) {
    case 'valid':
      return bearer();
    case 'none':
      return `Bearer ${jwt.sign(TEST_CLAIMS, '', { algorithm: 'none' })}`;
    case 'tampered':
      return `${bearer().slice(0, -4)}AAAA`;
    case 'expired':
      return `Bearer ${jwt.sign({ ...TEST_CLAIMS, exp: 1000 }, TEST_AUTH_SECRET)}`;
    case 'other-secret':
      return `Bearer ${jwt.sign(TEST_CLAIMS, 'other')}`;
    case 'garbage':
      return 'Bearer a.b.c';
    default:
      return undefined;
  }
}

/**
 * The generators' seed: fixed by default so that a CI run is repeatable (a random seed once drew
 * too few valid requests for the reach check below and failed a run with nothing wrong);
 * `ROBUSTNESS_SEED=<n>` replays a seed, `ROBUSTNESS_SEED=random` explores a new one (printed).
 */
function robustnessSeed(): number {
  const value = process.env.ROBUSTNESS_SEED;
  if (value === 'random') {
    const seed = Date.now();
    console.log(`robustness seed ${seed}`);
    return seed;
  }
  return value ? Number(value) : 20261126;
}

describe('robustness under random and mutated requests', () => {
  let server: Server;
  let baseUrl: string;
  let dataSource: ShopWithActions;
  let services: ReturnType<typeof createTestServices>;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    dataSource = new ShopWithActions();
    services = createTestServices(dataSource);
    const app = express();
    app.use(
      createAgentRouter({
        ...services,
        options: { ...services.options, envSecret: 'e'.repeat(64) },
      }),
    );
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/forest`;
  });

  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    await new Promise((resolve) => server.close(resolve));
  });

  const statuses = new Map<number, number>();
  const snapshot = () =>
    JSON.stringify(
      dataSource.collections.map(
        (collection) => (collection as unknown as { records: unknown[] }).records,
      ),
    );

  it('never answers 500, always in a documented shape, and never writes partially', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH'),
        path,
        query,
        body,
        token,
        async (method, route, parameters, payload, tokenKind) => {
          const url = new URL(`${baseUrl}${route}`);
          for (const [key, value] of Object.entries(parameters))
            url.searchParams.set(key, String(value));
          const before = snapshot();
          const headers: Record<string, string> = { 'Content-Type': 'application/json' };
          const auth = authorization(tokenKind);
          if (auth) headers.Authorization = auth;
          let response: Response;
          try {
            response = await fetch(url, {
              method,
              headers,
              body: method === 'GET' || payload === undefined ? undefined : payload,
            });
          } catch (error) {
            throw new Error(
              `no answer (${String(error)}): ${method} ${route} ${JSON.stringify(parameters)}`,
            );
          }
          const text = await response.text();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const context = `${method} ${route} ${JSON.stringify(parameters)} ${String(payload)} → ${response.status} ${text.slice(0, 300)}`;
          if (response.status >= 500) throw new Error(`5xx: ${context}`);
          if (/\n\s+at /.test(text)) throw new Error(`stack trace: ${context}`);
          if (response.status >= 400) {
            const type = response.headers.get('content-type') ?? '';
            if (type.startsWith('text/plain')) {
              if (!['Bad Request', 'Not Found', 'Payload Too Large'].includes(text))
                throw new Error(`plain: ${context}`);
            } else {
              const json = JSON.parse(text) as {
                errors?: { name: string; detail: string; status: number }[];
                error?: unknown;
              };
              const isActionError =
                route.startsWith('/_actions/') && typeof json.error === 'string';
              const isLoginError = route.startsWith('/authentication') && json.error !== undefined;
              if (!isActionError && !isLoginError) {
                if (json.errors?.length !== 1) throw new Error(`envelope: ${context}`);
                const [error] = json.errors;
                if (
                  !error ||
                  error.status !== response.status ||
                  typeof error.detail !== 'string' ||
                  error.detail === ''
                ) {
                  throw new Error(`envelope item: ${context}`);
                }
              }
              if (snapshot() !== before) throw new Error(`partial write: ${context}`);
            }
          }
        },
      ),
      {
        numRuns: Number(process.env.ROBUSTNESS_RUNS ?? 1200),
        seed: robustnessSeed(),
      },
    );
    expect(services.errors).toEqual([]);
    expect(rejections).toEqual([]);
    // The generators must reach the routes, not only the guards in front of them.
    const count = (predicate: (status: number) => boolean) =>
      [...statuses].filter(([status]) => predicate(status)).reduce((sum, [, n]) => sum + n, 0);
    // About 4 % of random requests are valid (46–60 of 1,200 over the seeds tried): the bound
    // says the generators reach the routes, with room for any seed.
    expect(count((status) => status < 300)).toBeGreaterThan(25);
    expect(
      count((status) => status === 400 || status === 404 || status === 403 || status === 422),
    ).toBeGreaterThan(200);
    if (process.env.ROBUSTNESS_REPORT) console.log(Object.fromEntries(statuses));
  }, 240_000);
});

/**
 * Issue 18 on PostgreSQL: thousands of generated requests in the categories the issue found
 * (deep and wide condition trees, deep bodies, out-of-range and malformed ids per key type,
 * operator/value mismatches, empty projections, chart bounds, associating missing records), plus
 * valid requests that must succeed. Every answer is checked against its category: never a 5xx
 * or a dropped connection, never a 2xx for input the protocol calls invalid. The counts are
 * printed on every run.
 */
describe('robustness on PostgreSQL, by category of issue 18', () => {
  const db = useTestDatabase('postgres');
  let server: Server;
  let baseUrl: string;
  let dataSource: SqlDataSource;
  let services: Awaited<ReturnType<typeof openPostgresShop>>['services'];

  beforeAll(async () => {
    let app: express.Express;
    ({ dataSource, services, app } = await openPostgresShop(db().url, db().knex));
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/forest`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await dataSource?.close();
  });

  /** What an answer must be: `invalid` a 4xx, `read404` a 404, `valid` a 2xx, `any` below 500. */
  type Expectation = 'invalid' | 'read404' | 'valid' | 'any';
  interface Probe {
    category: string;
    expect: Expectation;
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    path: string;
    body?: string;
  }

  const INT_RANGES = {
    customers: [-(2n ** 31n), 2n ** 31n - 1n],
    orders: [-(2n ** 63n), 2n ** 63n - 1n],
    labels: [-(2n ** 15n), 2n ** 15n - 1n],
  } as const;
  const STRICT_INTEGER = /^(0|-?[1-9]\d*)$/;
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const LAMP = '7b3f0d2c-1d6e-4a8e-9a51-3f4b2c1d0e9f';
  const q = (filters: unknown) =>
    `timezone=UTC&filters=${encodeURIComponent(typeof filters === 'string' ? filters : JSON.stringify(filters))}`;
  const nested = (branches: number) =>
    '{"aggregator":"and","conditions":['.repeat(branches) +
    '{"field":"id","operator":"equal","value":1}' +
    ',{"field":"id","operator":"present","value":null}]}'.repeat(branches);
  const safePathId = (id: string) => {
    try {
      return encodeURIComponent(id);
    } catch {
      return null;
    }
  };

  const outOfRange = fc
    .constantFrom(...(Object.keys(INT_RANGES) as (keyof typeof INT_RANGES)[]))
    .chain((collection) => {
      const [min, max] = INT_RANGES[collection];
      return fc.tuple(
        fc.constant(collection),
        fc.oneof(
          fc.bigInt({ min: max + 1n, max: max * 2n ** 40n }),
          fc.bigInt({ min: min * 2n ** 40n, max: min - 1n }),
          fc.constantFrom(max + 1n, min - 1n, 10n ** 30n),
        ),
      );
    });
  const RELATION_OF = { customers: 'orders', orders: 'products', labels: null } as const;
  const outOfRangeIds = fc
    .tuple(outOfRange, fc.integer({ min: 0, max: 7 }))
    .map(([[collection, id], route]): Probe => {
      const relation = RELATION_OF[collection];
      const base = `/${collection}/${id}`;
      const relationPath = relation ? `${base}/relationships/${relation}` : null;
      const target = collection === 'customers' ? '1' : LAMP;
      const linkage = JSON.stringify({ data: [{ type: relation, id: target }] });
      const probes: Probe[] = [
        {
          category: 'id out of range (read)',
          expect: 'read404',
          method: 'GET',
          path: `${base}?timezone=UTC`,
        },
        {
          category: 'id out of range (write)',
          expect: 'invalid',
          method: 'DELETE',
          path: `${base}?timezone=UTC`,
        },
        {
          category: 'id out of range (write)',
          expect: 'invalid',
          method: 'PUT',
          path: `${base}?timezone=UTC`,
          body: JSON.stringify({ data: { type: collection, attributes: { name: 'x' } } }),
        },
      ];
      if (relationPath) {
        probes.push(
          {
            category: 'id out of range (read)',
            expect: 'read404',
            method: 'GET',
            path: `${relationPath}?timezone=UTC`,
          },
          {
            category: 'id out of range (read)',
            expect: 'read404',
            method: 'GET',
            path: `${relationPath}/count?timezone=UTC`,
          },
          {
            category: 'id out of range (write)',
            expect: 'invalid',
            method: 'POST',
            path: `${relationPath}?timezone=UTC`,
            body: linkage,
          },
          {
            category: 'id out of range (write)',
            expect: 'invalid',
            method: 'DELETE',
            path: `${relationPath}?timezone=UTC`,
            body: linkage,
          },
        );
      }
      if (collection === 'orders') {
        probes.push({
          category: 'id out of range (write)',
          expect: 'invalid',
          method: 'POST',
          path: '/customers/1/relationships/orders?timezone=UTC',
          body: JSON.stringify({ data: [{ type: 'orders', id: String(id) }] }),
        });
      }
      return probes[route % probes.length] as Probe;
    });

  const malformedText = fc.oneof(
    fc.constantFrom(
      ' 12',
      '12 ',
      '1e3',
      '1E3',
      '0x10',
      '0b1',
      '007',
      '-0',
      '+1',
      '1.5',
      '1,000',
      '12abc',
      'NaN',
      'Infinity',
      '1|2',
      '１２',
      '--1',
      '0.',
    ),
    fc.string({ minLength: 1, maxLength: 12 }),
    fc.stringMatching(/^[0-9a-fA-Fx. +-]{1,40}$/),
  );
  const malformedIds = fc
    .tuple(
      fc.constantFrom('customers', 'orders', 'labels', 'products'),
      malformedText,
      fc.integer({ min: 0, max: 3 }),
    )
    .filter(([collection, id]) => {
      if (/^(count|\.{1,2})$/i.test(id) || safePathId(id) === null) return false;
      return collection === 'products' ? !UUID.test(id) : !STRICT_INTEGER.test(id);
    })
    .map(([collection, id, route]): Probe => {
      const encoded = safePathId(id) as string;
      const relation =
        collection === 'products' ? 'orders' : RELATION_OF[collection as 'customers'];
      const paths: Probe[] = [
        {
          category: 'malformed id',
          expect: 'invalid',
          method: 'GET',
          path: `/${collection}/${encoded}?timezone=UTC`,
        },
        {
          category: 'malformed id',
          expect: 'invalid',
          method: 'DELETE',
          path: `/${collection}/${encoded}?timezone=UTC`,
        },
        {
          category: 'malformed id',
          expect: 'invalid',
          method: 'DELETE',
          path: `/${collection}?timezone=UTC`,
          body: JSON.stringify({
            data: { attributes: { ids: [id], collection_name: collection } },
          }),
        },
      ];
      if (relation) {
        paths.push({
          category: 'malformed id',
          expect: 'invalid',
          method: 'GET',
          path: `/${collection}/${encoded}/relationships/${relation}?timezone=UTC`,
        });
      }
      return paths[route % paths.length] as Probe;
    });

  const INTEGER_FIELDS = ['id', 'quantity', 'customer_id', 'customer:id'];
  const mismatch = fc.oneof(
    fc.record({
      field: fc.constantFrom(...INTEGER_FIELDS, 'total'),
      operator: fc.constantFrom('equal', 'not_equal', 'less_than', 'greater_than'),
      value: fc.oneof(
        fc.boolean(),
        fc.constant({}),
        fc.constant([]),
        fc.constantFrom('abc', '', '1e', '0x1', ' '),
        fc.string().filter((text) => !/^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(text)),
      ),
    }),
    fc
      .constantFrom(...INTEGER_FIELDS)
      .chain((field) =>
        fc.record({
          field: fc.constant(field),
          operator: fc.constantFrom('equal', 'greater_than', 'in'),
          value: fc.oneof(
            // Beyond the column's range: orders.id is a bigint, the others integers.
            fc
              .tuple(
                fc.bigInt({ min: field === 'id' ? 2n ** 63n : 2n ** 31n, max: 2n ** 80n }),
                fc.boolean(),
              )
              .map(([n, asText]) => (asText ? String(n) : Number(n))),
            fc.double({ min: 0.1, max: 1000, noNaN: true }).filter((n) => !Number.isInteger(n)),
          ),
        }),
      )
      .map((leaf) => (leaf.operator === 'in' ? { ...leaf, value: [1, leaf.value] } : leaf)),
    fc
      .record({
        field: fc.constantFrom('quantity', 'id', 'reference', 'paid_at'),
        operator: fc.constantFrom('in', 'not_in'),
        value: fc.oneof(
          fc.constant([{}]),
          fc.constant([true]),
          fc.constant('x,y'),
          fc.constant([[1]]),
          fc.constant(5),
        ),
      })
      .filter((leaf) => !(leaf.field === 'reference' && leaf.value === 'x,y')),
    fc
      .record(
        {
          field: fc.constantFrom('quantity', 'reference', 'paid_at', 'id'),
          operator: fc.constantFrom(
            'equal',
            'less_than',
            'contains',
            'in',
            'before',
            'starts_with',
          ),
        },
        { requiredKeys: ['field', 'operator'] },
      )
      .filter(
        ({ field, operator }) =>
          !(['contains', 'starts_with'].includes(operator) && field !== 'reference') &&
          !(operator === 'before' && field !== 'paid_at'),
      ),
    fc.record({
      field: fc.constant('reference'),
      operator: fc.constantFrom('contains', 'starts_with', 'equal', 'i_contains'),
      // Numbers are cast to text on a String field (agent-http-protocol §6.3): not invalid.
      value: fc.oneof(fc.boolean(), fc.constant({ a: 1 }), fc.constant([1])),
    }),
    fc.record({
      field: fc.constant('paid_at'),
      operator: fc.constantFrom('before', 'after', 'previous_x_days', 'today', 'past'),
      value: fc.oneof(fc.constant('not-a-date'), fc.boolean(), fc.constant({}), fc.constant('abc')),
    }),
    fc.record({
      field: fc.constantFrom('nope', 'customer:nope', 'products', 'customer'),
      operator: fc.constant('equal'),
      value: fc.constant(1),
    }),
    fc.record({
      field: fc.constant('reference'),
      operator: fc.constantFrom('unknown_op', 'includes_all', 'AND', 'match_all'),
      value: fc.constant('x'),
    }),
  );
  const mismatches = fc
    .tuple(
      mismatch,
      fc.constantFrom(
        '/orders',
        '/orders/count',
        '/orders.csv',
        '/customers/1/relationships/orders',
      ),
      fc.boolean(),
    )
    .map(([leaf, route, asBranch]): Probe => {
      const filter = asBranch
        ? { aggregator: 'or', conditions: [{ field: 'id', operator: 'equal', value: 1 }, leaf] }
        : leaf;
      const target = route === '/customers/1/relationships/orders' ? route : route;
      return {
        category: 'operator/value mismatch',
        expect: 'invalid',
        method: 'GET',
        path: `${target}?${q(filter)}${route.endsWith('.csv') ? '&header=id' : ''}`,
      };
    });

  const chartBody = (body: Record<string, unknown>) => JSON.stringify(body);
  const deepTrees = fc.oneof(
    fc.integer({ min: 32, max: 60 }).chain((branches) =>
      fc
        .constantFrom('/orders', '/orders/count', '/customers/1/relationships/orders')
        .map((route): Probe => ({
          category: 'deep tree (query)',
          expect: 'invalid',
          method: 'GET',
          path: `${route}?${q(nested(branches))}`,
        })),
    ),
    fc.integer({ min: 32, max: 2000 }).chain((branches) =>
      fc.constantFrom('stats-object', 'stats-text', 'bulk-delete', 'action').map((kind): Probe => {
        const tree = nested(branches);
        if (kind === 'stats-object' || kind === 'stats-text') {
          const filter = kind === 'stats-object' ? tree : JSON.stringify(tree);
          return {
            category: 'deep tree (body)',
            expect: 'invalid',
            method: 'POST',
            path: '/stats/orders?timezone=UTC',
            body: `{"type":"Value","aggregator":"Count","filter":${filter}}`,
          };
        }
        return {
          category: 'deep tree (body)',
          expect: 'invalid',
          method: 'DELETE',
          path: '/orders?timezone=UTC',
          body: `{"data":{"attributes":{"all_records":true,"ids":[],"all_records_ids_excluded":[],"all_records_subset_query":{"filters":${JSON.stringify(tree)}}}}}`,
        };
      }),
    ),
    fc.constantFrom(10_001, 10_050).map((width): Probe => ({
      category: 'wide tree',
      expect: 'invalid',
      method: 'POST',
      path: '/stats/orders?timezone=UTC',
      body: chartBody({
        type: 'Value',
        aggregator: 'Count',
        filter: {
          aggregator: 'or',
          conditions: Array.from({ length: width }, (_, i) => ({
            field: 'id',
            operator: 'equal',
            value: i,
          })),
        },
      }),
    })),
    fc.integer({ min: 129, max: 3000 }).map((depth): Probe => ({
      category: 'deep body',
      expect: 'invalid',
      method: 'PUT',
      path: '/orders/1?timezone=UTC',
      body: `{"data":{"type":"orders","attributes":{"reference":${'['.repeat(depth)}${']'.repeat(depth)}}}}`,
    })),
  );

  const projections = fc
    .tuple(
      fc.array(fc.constantFrom('reference', 'status', '', ' '), { minLength: 1, maxLength: 5 }),
      fc.boolean(),
    )
    // An empty `fields[…]` asks for the default projection (§6.2): only lists with an empty
    // name among others are invalid.
    .filter(([names]) => names.some((name) => name.trim() === '') && names.join(',') !== '')
    .map(([names, relation]): Probe => ({
      category: 'empty projection',
      expect: 'invalid',
      method: 'GET',
      path: relation
        ? `/orders?timezone=UTC&fields[orders]=customer&fields[customer]=${encodeURIComponent(names.join(','))}`
        : `/orders?timezone=UTC&fields[orders]=${encodeURIComponent(names.join(','))}`,
    }));

  const chartBounds = fc.oneof(
    fc
      .oneof(
        fc.integer({ min: 10_001 }),
        fc.integer({ max: 0 }),
        fc.double({ min: 0.01, max: 100, noNaN: true }).filter((n) => !Number.isInteger(n)),
        fc.constantFrom(1e12, 'ten', '', true, [], {}),
      )
      .map((limit): Probe => ({
        category: 'chart bounds',
        expect: 'invalid',
        method: 'POST',
        path: '/stats/customers?timezone=UTC',
        body: chartBody({
          type: 'Leaderboard',
          aggregator: 'Count',
          labelFieldName: 'full_name',
          relationshipFieldName: 'orders',
          limit,
        }),
      })),
    fc
      .record({
        type: fc.constantFrom('Value', 'Pie', 'Line', 'Objective', 'Percentage', 'Smart', 'nope'),
        aggregator: fc.constantFrom('Count', 'Sum', 'Median', ''),
        aggregateFieldName: fc.constantFrom('total', 'nope', 'reference'),
        groupByFieldName: fc.constantFrom('nope', undefined),
        timeRange: fc.constantFrom('Decade', undefined),
      })
      .filter((chart) => {
        // Keep only combinations the protocol refuses.
        if (['Percentage', 'Smart', 'nope'].includes(chart.type)) return true;
        if (!['Count', 'Sum'].includes(chart.aggregator)) return true;
        if (chart.type === 'Pie' || chart.type === 'Line') return true;
        return chart.aggregator === 'Sum' && chart.aggregateFieldName !== 'total';
      })
      .map((chart): Probe => ({
        category: 'chart bounds',
        expect: 'invalid',
        method: 'POST',
        path: '/stats/orders?timezone=UTC',
        body: chartBody(chart),
      })),
  );

  const associations = fc.oneof(
    fc
      .tuple(
        fc.uuid().filter((id) => id !== LAMP && id !== '9a38c052-50f9-df5b-200b-482880c100f1'),
        fc.constantFrom(1, 2, 3),
      )
      .map(([id, order]): Probe => ({
        category: 'associate missing record',
        expect: 'read404',
        method: 'POST',
        path: `/orders/${order}/relationships/products?timezone=UTC`,
        body: JSON.stringify({ data: [{ type: 'products', id }] }),
      })),
    fc.integer({ min: 1000, max: 2 ** 31 - 1 }).map((id): Probe => ({
      category: 'associate missing record',
      expect: 'read404',
      method: 'POST',
      path: '/customers/1/relationships/orders?timezone=UTC',
      body: JSON.stringify({ data: [{ type: 'orders', id: String(id) }] }),
    })),
  );

  const valid = fc.oneof(
    fc.constantFrom(1, 2, 3).map((id): Probe => ({
      category: 'valid',
      expect: 'valid',
      method: 'GET',
      path: `/orders/${id}?timezone=UTC`,
    })),
    fc.constantFrom(LAMP, '9a38c052-50f9-df5b-200b-482880c100f1').map((id): Probe => ({
      category: 'valid',
      expect: 'valid',
      method: 'GET',
      path: `/products/${id}?timezone=UTC`,
    })),
    fc
      .record({
        field: fc.constantFrom('quantity', 'id', 'customer_id'),
        operator: fc.constantFrom('equal', 'greater_than', 'in', 'not_in'),
        value: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      })
      .map((leaf): Probe => ({
        category: 'valid',
        expect: 'valid',
        method: 'GET',
        path: `/orders/count?${q(leaf.operator.endsWith('in') ? { ...leaf, value: [leaf.value, 1] } : leaf)}`,
      })),
    fc.integer({ min: 1, max: 31 }).map((branches): Probe => ({
      category: 'valid',
      expect: 'valid',
      method: 'GET',
      path: `/orders?${q(nested(branches))}`,
    })),
    fc.integer({ min: 1, max: 10_000 }).map((limit): Probe => ({
      category: 'valid',
      expect: 'valid',
      method: 'POST',
      path: '/stats/customers?timezone=UTC',
      body: chartBody({
        type: 'Leaderboard',
        aggregator: 'Count',
        labelFieldName: 'full_name',
        relationshipFieldName: 'orders',
        limit,
      }),
    })),
    fc.string({ maxLength: 20 }).map((search): Probe => ({
      category: 'valid',
      expect: 'valid',
      method: 'GET',
      path: `/customers?timezone=UTC&search=${encodeURIComponent(search.replace(/[\uD800-\uDFFF]/g, ''))}`,
    })),
  );

  const probe = fc.oneof(
    { arbitrary: outOfRangeIds, weight: 3 },
    { arbitrary: malformedIds, weight: 3 },
    { arbitrary: mismatches, weight: 5 },
    { arbitrary: deepTrees, weight: 1 },
    { arbitrary: projections, weight: 1 },
    { arbitrary: chartBounds, weight: 1 },
    { arbitrary: associations, weight: 1 },
    { arbitrary: valid, weight: 3 },
  );

  it('answers every category as the protocol says, never 5xx, never 2xx to invalid input', async () => {
    const runs = Number(process.env.ROBUSTNESS_PG_RUNS ?? 5200);
    const seed = robustnessSeed();
    const probes = fc.sample(probe, { numRuns: runs, seed });
    const admin = bearer({ permissionLevel: 'admin' });
    const counts: Record<string, Record<string, number>> = {};
    const failures: string[] = [];
    let connectionErrors = 0;
    let serverErrors = 0;
    let invalidAccepted = 0;
    const rowsBefore = await db().knex.raw(
      'SELECT (SELECT count(*) FROM orders) o, (SELECT count(*) FROM orders_products) op, (SELECT count(*) FROM customers) c',
    );
    const started = Date.now();
    const send = async (item: Probe) => {
      let status: number;
      let text = '';
      try {
        const response = await fetch(`${baseUrl}${item.path}`, {
          method: item.method,
          headers: { Authorization: admin, 'Content-Type': 'application/json' },
          body: item.body,
        });
        status = response.status;
        text = await response.text();
      } catch (error) {
        connectionErrors += 1;
        failures.push(`no answer (${String(error)}): ${item.method} ${item.path.slice(0, 200)}`);
        return;
      }
      const bucket = (counts[item.category] ??= {});
      bucket[status] = (bucket[status] ?? 0) + 1;
      const where = `${item.category}: ${item.method} ${item.path.slice(0, 200)} ${String(item.body).slice(0, 200)} → ${status} ${text.slice(0, 200)}`;
      if (status >= 500) {
        serverErrors += 1;
        failures.push(`5xx ${where}`);
      } else if (item.expect === 'valid' && (status < 200 || status >= 300)) {
        failures.push(`not 2xx ${where}`);
      } else if (item.expect === 'invalid' && (status < 400 || status >= 500)) {
        invalidAccepted += 1;
        failures.push(`accepted ${where}`);
      } else if (item.expect === 'read404' && status !== 404) {
        if (status < 400) invalidAccepted += 1;
        failures.push(`not 404 ${where}`);
      } else if (status >= 400 && !/^\{"errors":\[\{"name":"\w+","detail":"[^"]/.test(text)) {
        failures.push(`error shape ${where}`);
      }
    };
    for (let index = 0; index < probes.length; index += 16) {
      await Promise.all(probes.slice(index, index + 16).map(send));
    }
    const rowsAfter = await db().knex.raw(
      'SELECT (SELECT count(*) FROM orders) o, (SELECT count(*) FROM orders_products) op, (SELECT count(*) FROM customers) c',
    );
    console.log(
      `robustness on PostgreSQL: ${probes.length} requests in ${Date.now() - started} ms (seed ${seed}), ` +
        `${serverErrors} × 5xx, ${connectionErrors} connection errors, ${invalidAccepted} × 2xx to invalid input\n` +
        JSON.stringify(counts, null, 1),
    );
    expect(failures.slice(0, 20)).toEqual([]);
    expect({ serverErrors, connectionErrors, invalidAccepted }).toEqual({
      serverErrors: 0,
      connectionErrors: 0,
      invalidAccepted: 0,
    });
    expect(probes.length).toBeGreaterThanOrEqual(5000);
    // Every category was generated, and the valid requests reached the routes.
    expect(Object.keys(counts).sort()).toEqual([
      'associate missing record',
      'chart bounds',
      'deep body',
      'deep tree (body)',
      'deep tree (query)',
      'empty projection',
      'id out of range (read)',
      'id out of range (write)',
      'malformed id',
      'operator/value mismatch',
      'valid',
      'wide tree',
    ]);
    expect(rowsAfter.rows).toEqual(rowsBefore.rows);
    expect(services.errors).toEqual([]);
  }, 240_000);
});
