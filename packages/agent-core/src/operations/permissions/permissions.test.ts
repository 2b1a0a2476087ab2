import express from 'express';
import request from 'supertest';

import type { CollectionRightsJson } from '../../platform/permission-source';
import type { PlainConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import { createAgentRouter } from '../../http/create-agent-router';
import { bearer, createTestServices } from '../../http/test-fixtures/shop-services';

const ALL: CollectionRightsJson = {
  browseEnabled: { roles: [1] },
  readEnabled: { roles: [1] },
  editEnabled: { roles: [1] },
  addEnabled: { roles: [1] },
  deleteEnabled: { roles: [1] },
  exportEnabled: { roles: [1] },
};

function setup(rights: Partial<CollectionRightsJson> = {}) {
  const services = createTestServices();
  services.permissions.environment = {
    collections: {
      orders: { collection: { ...ALL, ...rights }, actions: {} },
      customers: { collection: ALL, actions: {} },
      payments: { collection: { ...ALL, ...rights }, actions: {} },
      products: { collection: ALL, actions: {} },
    },
  };
  const app = express();
  app.use(createAgentRouter(services));
  const auth = bearer();
  const call = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
    request(app)[method](path).set('Authorization', auth);
  return { services, call };
}

const FORBIDDEN = { errors: [{ name: 'ForbiddenError', detail: 'Forbidden', status: 403 }] };
const selection = { data: { attributes: { ids: ['101'] } } };
const body = { data: { type: 'orders', attributes: { reference: 'X' } } };

describe('collection rights', () => {
  it.each([
    ['browse', 'get', '/forest/orders?timezone=UTC', undefined],
    ['browse', 'get', '/forest/orders/count?timezone=UTC', undefined],
    ['browse', 'get', '/forest/orders.csv?timezone=UTC&header=a', undefined],
    ['export', 'get', '/forest/orders.csv?timezone=UTC&header=a', undefined],
    ['read', 'get', '/forest/orders/101?timezone=UTC', undefined],
    ['add', 'post', '/forest/orders?timezone=UTC', body],
    ['edit', 'put', '/forest/orders/101?timezone=UTC', body],
    ['edit', 'put', '/forest/orders/101/relationships/customer?timezone=UTC', { data: null }],
    [
      'edit',
      'put',
      '/forest/orders/101/relationships/tags/0?timezone=UTC',
      { data: { attributes: 'x' } },
    ],
    ['delete', 'delete', '/forest/orders/101?timezone=UTC', undefined],
    ['delete', 'delete', '/forest/orders?timezone=UTC', selection],
    ['browse', 'get', '/forest/orders/101/relationships/payments?timezone=UTC', undefined],
    ['browse', 'get', '/forest/orders/101/relationships/payments/count?timezone=UTC', undefined],
    [
      'export',
      'get',
      '/forest/orders/101/relationships/payments.csv?timezone=UTC&header=a',
      undefined,
    ],
    [
      'edit',
      'post',
      '/forest/orders/101/relationships/payments?timezone=UTC',
      { data: [{ id: '3' }] },
    ],
    [
      'edit',
      'delete',
      '/forest/orders/101/relationships/payments?timezone=UTC',
      { data: { attributes: { ids: ['1'] } } },
    ],
    [
      'delete',
      'delete',
      '/forest/orders/101/relationships/payments?timezone=UTC&delete=true',
      { data: { attributes: { ids: ['1'] } } },
    ],
  ] as const)('denies %s on %s %s', async (right, method, path, payload) => {
    const denied = setup({ [`${right}Enabled`]: { roles: [2] } });
    const response = await denied.call(method, path).send(payload).expect(403);
    expect(response.body).toEqual(FORBIDDEN);
    const granted = setup();
    const ok = await granted.call(method, path).send(payload);
    expect(ok.status).toBeLessThan(300);
  });

  it('grants everything in a development environment and denies a collection the platform omits', async () => {
    const { services, call } = setup();
    services.permissions.environment = { collections: {} };
    await call('get', '/forest/orders?timezone=UTC').expect(403);
    services.permissions.environment = true;
    await call('get', '/forest/orders?timezone=UTC').expect(200);
  });
});

describe('row-level scopes', () => {
  function scoped() {
    const context = setup();
    context.services.permissions.rendering = {
      team: { id: 5, name: 'Operations' },
      collections: {
        orders: {
          // The platform sends snake_case operators (platform protocol §5.4).
          scope: {
            aggregator: 'and',
            conditions: [
              { field: 'region', operator: 'equal', value: '{{currentUser.tags.region}}' },
            ],
          } as unknown as PlainConditionTree,
          segments: [],
        },
      },
      stats: [],
    };
    return context;
  }

  it('narrows lists, counts, exports and gets with the user context injected', async () => {
    const { call } = scoped();
    const list = await call('get', '/forest/orders?timezone=UTC').expect(200);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual(['101', '103']);
    expect((await call('get', '/forest/orders/count?timezone=UTC')).body).toEqual({ count: 2 });
    const csv = await call('get', '/forest/orders.csv?timezone=UTC&fields[orders]=id&header=id');
    expect(csv.text).toBe('id\n101\n103\n');
    await call('get', '/forest/orders/102?timezone=UTC').expect(404);
  });

  it('answers 422 InvalidScopeError, naming the reason, for a scope the collection cannot apply', async () => {
    const { call, services } = scoped();
    services.permissions.rendering = {
      team: { id: 5, name: 'Operations' },
      collections: {
        orders: {
          scope: { field: 'reference', operator: 'before', value: '2025-01-01' },
          segments: [],
        },
      } as never,
      stats: [],
    };
    for (const path of ['/forest/orders?timezone=UTC', '/forest/orders/count?timezone=UTC']) {
      const answer = await call('get', path).expect(422);
      const reason = expect.stringContaining("'Before'");
      expect(answer.body.errors).toEqual([
        {
          name: 'InvalidScopeError',
          status: 422,
          detail: expect.stringMatching(
            /^The scope of your team on 'orders' cannot be applied: .*'Before'/,
          ),
          data: { collection: 'orders', reason },
        },
      ]);
    }
  });

  it('cannot be widened by the client filters', async () => {
    const { call } = scoped();
    const filters = encodeURIComponent('{"field":"region","operator":"equal","value":"US"}');
    const list = await call('get', `/forest/orders?timezone=UTC&filters=${filters}`).expect(200);
    expect(list.body.data).toEqual([]);
  });

  it('answers data null for an out-of-scope update and deletes nothing out of scope', async () => {
    const { call, services } = scoped();
    const update = await call('put', '/forest/orders/102?timezone=UTC')
      .send({ data: { type: 'orders', attributes: { reference: 'hacked' } } })
      .expect(200);
    expect(update.body).toEqual({ jsonapi: { version: '1.0' }, data: null });
    await call('delete', '/forest/orders/102?timezone=UTC').expect(204);
    await call('delete', '/forest/orders?timezone=UTC')
      .send({ data: { attributes: { ids: [], all_records: true } } })
      .expect(204);
    services.permissions.rendering = { team: {}, collections: {}, stats: [] };
    const left = await call('get', '/forest/orders?timezone=UTC').expect(200);
    expect(left.body.data).toEqual([
      expect.objectContaining({
        id: '102',
        attributes: expect.objectContaining({ reference: 'SO-0102' }),
      }),
    ]);
  });
});

describe('live SQL segments', () => {
  const SQL = 'SELECT id FROM orders WHERE paid_at IS NULL';
  const path = (query: string, connection = '&connectionName=main') =>
    `/forest/orders?timezone=UTC&segmentQuery=${encodeURIComponent(query)}${connection}`;

  it('lets a plain user run only the SQL segments of the rendering', async () => {
    const { call, services } = setup();
    services.permissions.rendering = {
      team: {},
      collections: { orders: { scope: null, segments: [`${SQL};`] } },
      stats: [],
    };
    await call('get', path(SQL)).expect(200);
    const denied = await call('get', path('SELECT id FROM orders')).expect(403);
    expect(denied.body).toEqual(FORBIDDEN);
    const union = `${SQL}/*MULTI-SEGMENTS-QUERIES-UNION*/ UNION SELECT id FROM orders`;
    await call('get', path(union)).expect(403);
  });

  it('needs a connection name and a single SELECT', async () => {
    const { call } = setup();
    const missing = await call('get', path(SQL, '')).expect(422);
    expect(missing.body.errors[0].detail).toBe('Missing native query connection attribute');
    const admin = request(express().use(createAgentRouter(setup().services)))
      .get(path('DELETE FROM orders'))
      .set('Authorization', bearer({ permissionLevel: 'admin' }));
    const refused = await admin.expect(422);
    expect(refused.body.errors[0].detail).toContain('single "SELECT … FROM …"');
  });
});
