import express from 'express';
import request from 'supertest';

import type { DataSource } from '../toolkit/interfaces/data-source';
import { createAgentRouter } from './create-agent-router';
import { ShopWithActions } from './test-fixtures/action-collection';
import { ChartDataSource } from './test-fixtures/chart-data-source';
import { bearer, createTestServices } from './test-fixtures/shop-services';

/**
 * What a client sees from every route group of the agent (healthcheck, login, capabilities,
 * native query, stats, API charts, actions and their hooks, record writes, CSV export,
 * relations), and from the stages around them (session, body limits, bad JSON, 404s, HEAD and
 * OPTIONS). The snapshot was recorded from the agent's former express routers: the route table
 * must keep answering exactly the same (status, headers, body).
 */
interface Sent {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
  path: string;
  headers?: Record<string, string>;
  /** A string is sent as is (with a JSON content type unless `headers` says otherwise). */
  body?: unknown;
  /** The data source: the shop with actions (default) or the chart fixture. */
  charts?: boolean;
}

const auth = { Authorization: bearer() };
const json = { ...auth, 'Content-Type': 'application/json' };

function app(dataSource: DataSource): express.Express {
  const services = createTestServices(dataSource);
  const application = express();
  application.use(createAgentRouter(services));
  return application;
}

async function answer(sent: Sent) {
  const target = app(sent.charts ? new ChartDataSource() : new ShopWithActions());
  const agent = request(target);
  const method = sent.method.toLowerCase() as 'get';
  let call = agent[method](sent.path).set(sent.headers ?? {});
  if (sent.body !== undefined) {
    if (typeof sent.body === 'string' && !sent.headers?.['Content-Type']) {
      call = call.set('Content-Type', 'application/json');
    }
    call = call.send(sent.body as object);
  }
  const response = await call;
  const headers: Record<string, unknown> = { ...response.headers };
  for (const name of ['date', 'last-modified', 'x-forest-correlation-id', 'connection']) {
    delete headers[name];
  }
  // Express's `res.json` hashed every JSON body into an ETag; JSON answers no longer carry one.
  if (String(headers['content-type']).startsWith('application/json')) delete headers.etag;
  const body = String(response.text ?? '')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/"reference":"[0-9a-f]{8}"/g, '"reference":"<ref>"');
  if (headers['content-length'] !== undefined && body !== response.text) {
    delete headers['content-length'];
  }
  return { status: response.status, headers, body };
}

const deep = `${'['.repeat(200)}${']'.repeat(200)}`;

const CASES: Sent[] = [
  // Public routes.
  { method: 'GET', path: '/forest' },
  { method: 'GET', path: '/forest/' },
  { method: 'GET', path: '/forest/?x=1' },
  { method: 'HEAD', path: '/forest' },
  { method: 'GET', path: '/forest//' },
  { method: 'POST', path: '/forest/authentication', body: { renderingId: 12 } },
  { method: 'POST', path: '/forest/authentication', body: { renderingId: 'x' } },
  { method: 'POST', path: '/forest/authentication', body: '{"renderingId":' },
  { method: 'POST', path: '/forest/authentication', body: { pad: 'x'.repeat(20_000) } },
  { method: 'POST', path: '/forest/authentication', body: deep },
  { method: 'POST', path: '/forest/authentication/', body: { renderingId: 12 } },
  { method: 'GET', path: '/forest/authentication/callback?error=denied&state=s' },
  { method: 'GET', path: '/forest/authentication/callback?code=1' },
  { method: 'GET', path: '/forest/authentication/callback?code=1&state=%7B%7D' },
  {
    method: 'GET',
    path: '/forest/authentication/callback?code=1&state=%7B%22renderingId%22%3A1%7D',
  },
  { method: 'HEAD', path: '/forest/authentication/callback?code=1' },
  // The stages around private routes.
  { method: 'POST', path: '/forest/orders', body: { data: {} } },
  { method: 'POST', path: '/forest/orders', headers: json, body: '{"data":' },
  { method: 'POST', path: '/forest/orders', headers: json, body: deep },
  { method: 'PATCH', path: '/forest/orders', headers: json, body: '{"data":' },
  { method: 'PATCH', path: '/forest/orders', headers: auth },
  { method: 'OPTIONS', path: '/forest/orders', headers: auth },
  { method: 'OPTIONS', path: '/forest/orders' },
  { method: 'HEAD', path: '/forest/orders/count?timezone=UTC', headers: auth },
  { method: 'HEAD', path: '/forest/orders/101?timezone=UTC', headers: auth },
  { method: 'GET', path: '/forest/a/b/c/d/e/f/g/h/i/j?timezone=UTC', headers: auth },
  { method: 'PUT', path: '/forest/orders/%E0%A4%A?timezone=UTC', headers: json, body: {} },
  { method: 'POST', path: '/forest/%E0%A4%A?timezone=UTC', headers: json, body: {} },
  { method: 'GET', path: '/forest/orders/101/relationships?timezone=UTC', headers: auth },
  // Capabilities and internal routes.
  {
    method: 'POST',
    path: '/forest/_internal/capabilities',
    headers: json,
    body: { collectionNames: ['orders'] },
  },
  { method: 'POST', path: '/forest/_internal/capabilities', body: {} },
  { method: 'GET', path: '/forest/_internal/capabilities?timezone=UTC', headers: auth },
  {
    method: 'POST',
    path: '/forest/scope-cache-invalidation',
    headers: json,
    body: { renderingId: 1 },
  },
  {
    method: 'POST',
    path: '/forest/scope-cache-invalidation',
    headers: json,
    body: { renderingId: '' },
  },
  // Native query, stats and API charts.
  {
    method: 'POST',
    path: '/forest/_internal/native_query?timezone=UTC',
    headers: json,
    body: { type: 'Value', query: 'DELETE FROM x', connectionName: 'main' },
    charts: true,
  },
  {
    method: 'POST',
    path: '/forest/_internal/native_query?timezone=UTC',
    headers: json,
    body: {},
    charts: true,
  },
  {
    method: 'POST',
    path: '/forest/stats/sales?timezone=UTC',
    headers: json,
    body: { type: 'Value', aggregator: 'Count' },
    charts: true,
  },
  {
    method: 'POST',
    path: '/forest/stats/nothing?timezone=UTC',
    headers: json,
    body: { type: 'Value', aggregator: 'Count' },
    charts: true,
  },
  {
    method: 'GET',
    path: '/forest/_charts/revenue?timezone=UTC&factor=3',
    headers: auth,
    charts: true,
  },
  {
    method: 'POST',
    path: '/forest/_charts/revenue?timezone=UTC',
    headers: json,
    body: { factor: 2 },
    charts: true,
  },
  { method: 'GET', path: '/forest/_charts/missing?timezone=UTC', headers: auth, charts: true },
  {
    method: 'GET',
    path: '/forest/_charts/sellers/salesOfSeller?timezone=UTC&record_id=2',
    headers: auth,
    charts: true,
  },
  {
    method: 'POST',
    path: '/forest/_charts/sellers/salesOfSeller?timezone=UTC',
    headers: json,
    body: { record_id: 1 },
    charts: true,
  },
  { method: 'GET', path: '/forest/_charts/revenue', headers: auth, charts: true },
  // Actions and their hooks.
  {
    method: 'POST',
    path: '/forest/_actions/orders/2/notify?timezone=UTC',
    headers: json,
    body: { data: { attributes: { ids: ['101'], collection_name: 'orders' } } },
  },
  {
    method: 'POST',
    path: '/forest/_actions/orders/1/refund-partial?timezone=UTC',
    headers: json,
    body: { data: { attributes: { ids: ['101'], collection_name: 'orders' } } },
  },
  {
    method: 'POST',
    path: '/forest/_actions/orders/3/open-payments?timezone=UTC',
    headers: json,
    body: { data: { attributes: { ids: ['101'], collection_name: 'orders' } } },
  },
  {
    method: 'POST',
    path: '/forest/_actions/orders/4/export-invoice?timezone=UTC',
    headers: json,
    body: { data: { attributes: { ids: ['101'], collection_name: 'orders' } } },
  },
  {
    method: 'POST',
    path: '/forest/_actions/orders/0/mark-as-paid/hooks/load?timezone=UTC',
    headers: json,
    body: { data: { attributes: { ids: ['101'], collection_name: 'orders' } } },
  },
  {
    method: 'POST',
    path: '/forest/_actions/orders/0/mark-as-paid/hooks/unknown?timezone=UTC',
    headers: json,
    body: {},
  },
  {
    method: 'POST',
    path: '/forest/_actions/orders/9/nothing?timezone=UTC',
    headers: json,
    body: {},
  },
  { method: 'GET', path: '/forest/_actions/orders/0/mark-as-paid?timezone=UTC', headers: auth },
  // Record writes and the CSV export.
  {
    method: 'POST',
    path: '/forest/orders?timezone=UTC',
    headers: json,
    body: {
      data: { type: 'orders', attributes: { id: 900, reference: 'X-900', total: 5, region: 'EU' } },
    },
  },
  {
    method: 'PUT',
    path: '/forest/orders/101?timezone=UTC',
    headers: json,
    body: { data: { type: 'orders', id: '101', attributes: { total: 7 } } },
  },
  { method: 'DELETE', path: '/forest/orders/101?timezone=UTC', headers: auth },
  {
    method: 'DELETE',
    path: '/forest/orders?timezone=UTC',
    headers: json,
    body: { data: { attributes: { ids: ['101', '102'], collection_name: 'orders' } } },
  },
  {
    method: 'GET',
    path: '/forest/orders.csv?timezone=UTC&header=id,total&fields[orders]=id,total',
    headers: auth,
  },
  { method: 'GET', path: '/forest/orders.csv?timezone=UTC', headers: auth },
  // Relations.
  { method: 'GET', path: '/forest/orders/101/relationships/payments?timezone=UTC', headers: auth },
  {
    method: 'GET',
    path: '/forest/orders/101/relationships/payments/count?timezone=UTC',
    headers: auth,
  },
  {
    method: 'GET',
    path: '/forest/orders/101/relationships/payments.csv?timezone=UTC&header=id',
    headers: auth,
  },
  {
    method: 'POST',
    path: '/forest/orders/101/relationships/payments?timezone=UTC',
    headers: json,
    body: { data: [{ type: 'payments', id: '1' }] },
  },
  {
    method: 'POST',
    path: '/forest/orders/101/relationships/payments?timezone=UTC',
    headers: json,
    body: { data: [] },
  },
  {
    method: 'DELETE',
    path: '/forest/orders/101/relationships/payments?timezone=UTC',
    headers: json,
    body: { data: [{ type: 'payments', id: '1' }] },
  },
  {
    method: 'PUT',
    path: '/forest/orders/101/relationships/customer?timezone=UTC',
    headers: json,
    body: { data: { type: 'customers', id: '2' } },
  },
  {
    method: 'PUT',
    path: '/forest/orders/101/relationships/customer?timezone=UTC',
    headers: json,
    body: { data: 3 },
  },
  {
    method: 'PUT',
    path: '/forest/orders/101/relationships/tags/0?timezone=UTC',
    headers: json,
    body: { data: { attributes: { value: 'new' } } },
  },
  {
    method: 'PUT',
    path: '/forest/orders/101/relationships/tags/x?timezone=UTC',
    headers: json,
    body: {},
  },
];

describe('every route group answers as before', () => {
  it.each(CASES)('$method $path', async (sent) => {
    expect(await answer(sent)).toMatchSnapshot();
  });
});
