import express from 'express';
import request from 'supertest';

import { createAgentRouter } from './create-agent-router';
import { bearer, createTestServices, createShopDataSource } from './test-fixtures/shop-services';

/**
 * agent-http-protocol §1.5 step 3 and §1.6: every answer under the mount point carries
 * `x-forest-correlation-id` — public routes, refusals, errors, 404s, data routes — with the id
 * the request sent when well-formed, else a fresh UUID; a preflight ends before the stage.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const auth = { Authorization: bearer() };

function agent() {
  const application = express();
  application.use(createAgentRouter(createTestServices(createShopDataSource())));
  return request(application);
}

interface Case {
  name: string;
  method: 'get' | 'post' | 'put' | 'delete' | 'head';
  path: string;
  headers?: Record<string, string>;
  body?: string | object;
  status: number;
}

const CASES: Case[] = [
  { name: 'healthcheck', method: 'get', path: '/forest', status: 200 },
  { name: 'healthcheck (HEAD)', method: 'head', path: '/forest/', status: 200 },
  {
    name: 'login route',
    method: 'post',
    path: '/forest/authentication',
    body: { renderingId: 12 },
    status: 200,
  },
  { name: 'no token', method: 'get', path: '/forest/orders?timezone=UTC', status: 401 },
  {
    name: 'bad token',
    method: 'get',
    path: '/forest/orders?timezone=UTC',
    headers: { Authorization: 'Bearer nope' },
    status: 401,
  },
  {
    name: 'unknown path (plain-text 404)',
    method: 'get',
    path: '/forest/a/b/c/d/e?timezone=UTC',
    headers: auth,
    status: 404,
  },
  {
    name: 'unknown collection (JSON:API 404)',
    method: 'get',
    path: '/forest/nope?timezone=UTC',
    headers: auth,
    status: 404,
  },
  {
    name: 'missing record',
    method: 'get',
    path: '/forest/orders/999999?timezone=UTC',
    headers: auth,
    status: 404,
  },
  {
    name: 'missing timezone (400)',
    method: 'get',
    path: '/forest/orders',
    headers: auth,
    status: 400,
  },
  {
    name: 'unparsable body (plain-text 400)',
    method: 'post',
    path: '/forest/orders?timezone=UTC',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: '{"data":',
    status: 400,
  },
  { name: 'list', method: 'get', path: '/forest/orders?timezone=UTC', headers: auth, status: 200 },
  {
    name: 'internal route',
    method: 'post',
    path: '/forest/_internal/capabilities',
    headers: auth,
    body: { collectionNames: ['orders'] },
    status: 200,
  },
  {
    name: 'delete',
    method: 'delete',
    path: '/forest/orders/999999?timezone=UTC',
    headers: auth,
    status: 204,
  },
];

describe('the correlation header on every answer', () => {
  it.each(CASES)('$name: $status with a fresh id', async (sent) => {
    let call = agent()
      [sent.method](sent.path)
      .set(sent.headers ?? {});
    if (typeof sent.body === 'string') call = call.send(sent.body);
    else if (sent.body) call = call.send(sent.body);
    const answer = await call;
    expect(answer.status).toBe(sent.status);
    expect(answer.headers['x-forest-correlation-id']).toMatch(UUID);
  });

  it.each(CASES)('$name: the id the request sent, echoed', async (sent) => {
    let call = agent()
      [sent.method](sent.path)
      .set(sent.headers ?? {})
      .set('x-forest-correlation-id', 'revert:2026-11-28.a_b');
    if (sent.body) call = call.send(sent.body);
    const answer = await call;
    expect(answer.status).toBe(sent.status);
    expect(answer.headers['x-forest-correlation-id']).toBe('revert:2026-11-28.a_b');
  });

  it('replaces an id that is not well-formed with a fresh one', async () => {
    for (const id of ['has space', 'x'.repeat(65), 'a/b', '']) {
      const answer = await agent()
        .get('/forest/orders?timezone=UTC')
        .set(auth)
        .set('x-forest-correlation-id', id);
      expect(answer.status).toBe(200);
      expect(answer.headers['x-forest-correlation-id']).toMatch(UUID);
    }
  });

  it('gives each request its own id', async () => {
    const [a, b] = await Promise.all([agent().get('/forest'), agent().get('/forest')]);
    expect(a.headers['x-forest-correlation-id']).not.toBe(b.headers['x-forest-correlation-id']);
  });

  it('is not on a preflight, which ends before the stage (as the reference)', async () => {
    const answer = await agent()
      .options('/forest/orders')
      .set('Origin', 'https://console.test')
      .set('Access-Control-Request-Method', 'PUT');
    expect(answer.status).toBe(204);
    expect(answer.headers['x-forest-correlation-id']).toBeUndefined();
  });

  it('is not on a path outside the mount point, which is the host application’s', async () => {
    const answer = await agent().get('/elsewhere');
    expect(answer.status).toBe(404);
    expect(answer.headers['x-forest-correlation-id']).toBeUndefined();
  });
});
