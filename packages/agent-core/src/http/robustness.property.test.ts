import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

import express from 'express';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';

import { createAgentRouter } from './create-agent-router';
import { ShopWithActions } from './test-fixtures/action-collection';
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
        numRuns: Number(process.env.ROBUSTNESS_RUNS ?? 2500),
        seed: process.env.ROBUSTNESS_SEED ? Number(process.env.ROBUSTNESS_SEED) : undefined,
      },
    );
    expect(services.errors).toEqual([]);
    expect(rejections).toEqual([]);
    // The generators must reach the routes, not only the guards in front of them.
    const count = (predicate: (status: number) => boolean) =>
      [...statuses].filter(([status]) => predicate(status)).reduce((sum, [, n]) => sum + n, 0);
    expect(count((status) => status < 300)).toBeGreaterThan(50);
    expect(
      count((status) => status === 400 || status === 404 || status === 403 || status === 422),
    ).toBeGreaterThan(200);
    if (process.env.ROBUSTNESS_REPORT) console.log(Object.fromEntries(statuses));
  }, 240_000);
});
