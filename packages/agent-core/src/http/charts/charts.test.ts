import express from 'express';
import request from 'supertest';

import { createAgentRouter } from '../create-agent-router';
import { ChartDataSource } from '../test-fixtures/chart-data-source';
import { bearer, createTestServices } from '../test-fixtures/shop-services';

function setup(level: 'admin' | 'user' = 'admin') {
  const dataSource = new ChartDataSource();
  const services = createTestServices(dataSource);
  const app = express();
  app.use(createAgentRouter(services));
  const auth = bearer({ permissionLevel: level });
  return {
    services,
    dataSource,
    post: (path: string, body?: unknown) =>
      request(app)
        .post(path)
        .set('Authorization', auth)
        .send(body as object),
    get: (path: string) => request(app).get(path).set('Authorization', auth),
  };
}

const valueOf = (body: { data: { type: string; id: string; attributes: { value: unknown } } }) => {
  expect(body.data.type).toBe('stats');
  expect(body.data.id).toMatch(/^[0-9a-f-]{36}$/);
  return body.data.attributes.value;
};

describe('POST /stats/{collection}', () => {
  it('computes a Value chart with the previous period for a period filter', async () => {
    const { post } = setup();
    const response = await post('/forest/stats/sales?timezone=UTC', {
      type: 'Value',
      aggregator: 'Sum',
      aggregateFieldName: 'amount',
      filter: { field: 'soldAt', operator: 'today', value: null },
    }).expect(200);
    expect(valueOf(response.body)).toEqual({ countCurrent: 30, countPrevious: 5 });
    const plain = await post('/forest/stats/sales?timezone=UTC', {
      type: 'Value',
      aggregator: 'Count',
    }).expect(200);
    expect(valueOf(plain.body)).toEqual({ countCurrent: 5 });
  });

  it('computes Objective, Pie, Line and Leaderboard charts', async () => {
    const { post } = setup();
    const objective = await post('/forest/stats/sales?timezone=UTC', {
      type: 'Objective',
      aggregator: 'Count',
      objective: 10,
    });
    expect(valueOf(objective.body)).toEqual({ value: 5 });
    const pie = await post('/forest/stats/sales?timezone=UTC', {
      type: 'Pie',
      aggregator: 'Count',
      groupByFieldName: 'channel',
    });
    expect(valueOf(pie.body)).toEqual([
      { key: 'web', value: 4 },
      { key: 'shop', value: 1 },
    ]);
    const line = await post('/forest/stats/sales?timezone=UTC', {
      type: 'Line',
      aggregator: 'Sum',
      aggregateFieldName: 'amount',
      groupByFieldName: 'soldAt',
      timeRange: 'Month',
      filter: { field: 'soldAt', operator: 'before', value: '2025-06-01T00:00:00Z' },
    });
    expect(valueOf(line.body)).toEqual([
      { label: 'Jan 25', values: { value: 7 } },
      { label: 'Feb 25', values: { value: 0 } },
      { label: 'Mar 25', values: { value: 9 } },
    ]);
    const leaderboard = await post('/forest/stats/sellers?timezone=UTC', {
      type: 'Leaderboard',
      aggregator: 'Sum',
      aggregateFieldName: 'amount',
      labelFieldName: 'name',
      relationshipFieldName: 'sales',
      limit: 5,
    });
    expect(valueOf(leaderboard.body)).toEqual([
      { key: 'Bob', value: 29 },
      { key: 'Ada', value: 22 },
    ]);
  });

  it('refuses bad chart requests with 400', async () => {
    const { post } = setup();
    const percentage = await post('/forest/stats/sales?timezone=UTC', {
      type: 'Percentage',
    }).expect(400);
    expect(percentage.body.errors[0].detail).toBe('Invalid Chart type "Percentage"');
    const board = await post('/forest/stats/sales?timezone=UTC', {
      type: 'Leaderboard',
      labelFieldName: 'x',
      relationshipFieldName: 'seller',
    }).expect(400);
    expect(board.body.errors[0].detail).toBe(
      'Failed to generate leaderboard chart: parameters do not match pre-requisites',
    );
    await post('/forest/stats/sales?timezone=UTC', {
      type: 'Line',
      groupByFieldName: 'soldAt',
      timeRange: 'Decade',
    }).expect(400);
  });

  it('lets a plain user run only the charts saved in the rendering, with context variables injected after the check', async () => {
    const { post, services } = setup('user');
    const saved = {
      type: 'Value',
      sourceCollectionName: 'sales',
      aggregator: 'Count',
      aggregateFieldName: null,
      filter: { field: 'sellerId', operator: 'equal', value: '{{currentUser.id}}' },
    };
    services.permissions.rendering = { team: {}, collections: {}, stats: [saved] };
    const allowed = await post('/forest/stats/sales?timezone=UTC', {
      ...saved,
      aggregateFieldName: undefined,
      contextVariables: {},
    }).expect(200);
    expect(valueOf(allowed.body)).toEqual({ countCurrent: 3 });
    const denied = await post('/forest/stats/sales?timezone=UTC', {
      ...saved,
      aggregator: 'Sum',
      aggregateFieldName: 'amount',
    }).expect(403);
    expect(denied.body.errors[0]).toEqual({
      name: 'ForbiddenError',
      detail: 'Forbidden',
      status: 403,
    });
  });

  it('narrows charts with the scope', async () => {
    const { post, services } = setup();
    services.permissions.rendering = {
      team: {},
      collections: {
        sales: { scope: { field: 'channel', operator: 'Equal', value: 'shop' }, segments: [] },
      },
      stats: [],
    };
    const response = await post('/forest/stats/sales?timezone=UTC', {
      type: 'Value',
      aggregator: 'Count',
    });
    expect(valueOf(response.body)).toEqual({ countCurrent: 1 });
  });
});

describe('charts declared in code', () => {
  it('serves data-source charts wrapped (POST) and raw (GET) with scalar parameters', async () => {
    const { post, get } = setup();
    const wrapped = await post('/forest/_charts/revenue?timezone=UTC', {
      factor: 3,
      nested: { x: 1 },
    }).expect(200);
    expect(valueOf(wrapped.body)).toEqual({
      labels: ['Jan 25'],
      values: [{ key: 'revenue', values: [3] }],
    });
    const raw = await get('/forest/_charts/revenue?timezone=UTC&factor=2').expect(200);
    expect(raw.body).toEqual({ labels: ['Jan 25'], values: [{ key: 'revenue', values: [2] }] });
    await get('/forest/_charts/nope?timezone=UTC').expect(404);
  });

  it('serves collection charts for a record', async () => {
    const { post, get } = setup();
    const wrapped = await post('/forest/_charts/sellers/salesOfSeller?timezone=UTC', {
      record_id: '2',
    }).expect(200);
    expect(valueOf(wrapped.body)).toMatchObject({ countCurrent: 200, name: 'salesOfSeller' });
    await get('/forest/_charts/sellers/salesOfSeller?timezone=UTC').expect(400);
  });
});

describe('POST /_internal/native_query', () => {
  it('binds context variables and maps rows per chart type', async () => {
    const { post, dataSource } = setup();
    const pie = await post('/forest/_internal/native_query?timezone=UTC', {
      type: 'Pie',
      connectionName: 'main',
      query:
        'SELECT channel AS key, COUNT(*) AS value FROM sales WHERE seller_id = {{currentUser.id}}',
    }).expect(200);
    expect(valueOf(pie.body)).toEqual([
      { key: 'web', value: 3 },
      { key: 'shop', value: 1 },
    ]);
    expect(dataSource.lastNativeQuery?.query).toContain('seller_id = $currentUser_id');
    expect(dataSource.lastNativeQuery?.variables).toEqual({ currentUser_id: 1 });
    const value = await post('/forest/_internal/native_query?timezone=UTC', {
      type: 'Value',
      connectionName: 'main',
      query: 'SELECT 42 AS value FROM sales',
    });
    expect(valueOf(value.body)).toEqual({ countCurrent: 42, countPrevious: 40 });
    const empty = await post('/forest/_internal/native_query?timezone=UTC', {
      type: 'Objective',
      connectionName: 'main',
      query: 'SELECT * FROM empty',
    });
    expect(valueOf(empty.body)).toEqual([]);
  });

  it.each([
    [
      { type: 'Smart', connectionName: 'main', query: 'SELECT 1 FROM t' },
      'Native query endpoint only supports Query Chart Requests',
    ],
    [{ type: 'Pie', query: 'SELECT 1 FROM t' }, 'Missing native query connection attribute'],
    [
      { type: 'Pie', connectionName: 'other', query: 'SELECT 1 FROM t' },
      "Native query connection 'other' is unknown",
    ],
    [
      { type: 'Pie', connectionName: 'main', query: '  ' },
      'You cannot execute an empty SQL query.',
    ],
    [
      { type: 'Pie', connectionName: 'main', query: 'SELECT 1 FROM t; DROP TABLE t' },
      'You cannot chain SQL queries.',
    ],
    [
      { type: 'Pie', connectionName: 'main', query: 'DELETE FROM t' },
      'Only SELECT queries are allowed.',
    ],
    [
      { type: 'Pie', connectionName: 'main', query: 'SELECT 1 AS x FROM t' },
      "The result columns must be named key, value instead of 'x', 'y'.",
    ],
    [
      { type: 'Pie', connectionName: 'main', query: 'SELECT * FROM broken' },
      'Error during chart native query execution: relation "broken" does not exist',
    ],
  ])('answers 422 for %j', async (body, detail) => {
    const { post } = setup();
    const response = await post('/forest/_internal/native_query?timezone=UTC', body).expect(422);
    expect(response.body.errors[0].detail).toBe(detail);
  });
});

describe('capabilities and scope invalidation', () => {
  it('describes the requested collections', async () => {
    const { post } = setup();
    const response = await post('/forest/_internal/capabilities?timezone=UTC', {
      collectionNames: ['sales', 'nope'],
    }).expect(200);
    expect(response.body.nativeQueryConnections).toEqual([{ name: 'main' }]);
    expect(response.body.agentCapabilities.canUseProjectionOnGetOne).toBe(true);
    const [sales] = response.body.collections;
    expect(response.body.collections).toHaveLength(1);
    expect(sales.fields.find((f: { name: string }) => f.name === 'channel')).toEqual({
      name: 'channel',
      type: 'String',
      isGroupable: true,
      operators: expect.arrayContaining(['equal', 'i_contains', 'not_i_contains']),
    });
    expect(sales.fields.find((f: { name: string }) => f.name === 'seller')).toEqual({
      name: 'seller',
      type: 'ManyToOne',
      isGroupable: true,
    });
    expect(sales.aggregationCapabilities).toEqual({
      supportGroups: true,
      supportedDateOperations: ['Year', 'Quarter', 'Month', 'Week', 'Day'],
    });
    const none = await post('/forest/_internal/capabilities').expect(200);
    expect(none.body.collections).toEqual([]);
  });

  it('drops the cached scopes of a rendering', async () => {
    const { post, services } = setup();
    await post('/forest/scope-cache-invalidation', { renderingId: 12 }).expect(204);
    expect(services.permissions.invalidations).toBe(1);
    const bad = await post('/forest/scope-cache-invalidation', { renderingId: 'x' }).expect(400);
    expect(bad.body.errors[0].detail).toContain('Malformed body');
  });
});
