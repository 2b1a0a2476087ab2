import express from 'express';
import request from 'supertest';

import type { AgentServices } from '../platform/agent-services';
import type { LoggerLevel } from '../toolkit/interfaces/logger';
import { createAgentRouter, createExpressAgentRouter } from './create-agent-router';
import { bearer, createTestServices } from './test-fixtures/shop-services';

/** Two agents on the same services: the pipeline (its route table first), and express's routers alone. */
function pair(
  overrides: Omit<Partial<AgentServices>, 'options'> & {
    options?: Partial<AgentServices['options']>;
  } = {},
  loggerLevel?: LoggerLevel,
) {
  const lines: string[][] = [[], []];
  const apps = [true, false].map((withHotRoutes, index) => {
    const { options, ...rest } = overrides;
    const base = createTestServices(undefined, rest);
    const services: AgentServices = {
      ...base,
      options: { ...base.options, ...options, loggerLevel },
      logger: (level, message) => {
        if (level === 'Info') lines[index]?.push(message);
      },
    };
    const app = express();
    app.use(withHotRoutes ? createAgentRouter(services) : createExpressAgentRouter(services));
    return app;
  });
  return { hot: apps[0] as express.Express, reference: apps[1] as express.Express, lines };
}

interface Sent {
  path: string;
  headers?: Record<string, string>;
}

/** What a client sees, without the per-request correlation id and the dates. */
async function answer(app: express.Express, { path, headers = {} }: Sent) {
  const response = await request(app).get(path).set(headers);
  const seen = { ...response.headers };
  expect(seen['x-forest-correlation-id'] ?? 'none').toMatch(/^(none|[0-9a-f-]{36})$/);
  delete seen['x-forest-correlation-id'];
  delete seen.date;
  delete seen['last-modified'];
  return { status: response.status, headers: seen, body: response.text };
}

const auth = { Authorization: bearer() };

const CASES: Sent[] = [
  { path: '/forest/orders?timezone=Europe/Paris', headers: auth },
  { path: '/forest/orders/?timezone=Europe/Paris&sort=-id&page[size]=2', headers: auth },
  { path: '/forest/orders/count?timezone=UTC', headers: auth },
  { path: '/forest/orders/count/?timezone=UTC', headers: auth },
  { path: '/forest/orders/101?timezone=UTC', headers: auth },
  { path: '/forest/orders/101/?timezone=UTC', headers: auth },
  { path: '/forest/orders/999?timezone=UTC', headers: auth },
  { path: '/forest/orders/abc?timezone=UTC', headers: auth },
  { path: '/forest/orders/%31%30%31?timezone=UTC', headers: auth },
  { path: '/forest/%6Frders/101?timezone=UTC', headers: auth },
  { path: '/forest/orders/%E0%A4%A?timezone=UTC', headers: auth },
  { path: '/forest/%E0%A4%A/count?timezone=UTC', headers: auth },
  { path: '/forest/orders/%63ount?timezone=UTC', headers: auth },
  { path: '/forest/orders.csv?timezone=UTC&header=id', headers: auth },
  { path: '/forest/nothing?timezone=UTC', headers: auth },
  { path: '/forest/orders', headers: auth },
  { path: '/forest/orders?timezone=Mars/Base', headers: auth },
  { path: '/forest/orders//101?timezone=UTC', headers: auth },
  { path: '/forest//orders?timezone=UTC', headers: auth },
  { path: '/forest/orders/101//?timezone=UTC', headers: auth },
  { path: '/forest/_charts/x?timezone=UTC', headers: auth },
  { path: '/forest/_charts?timezone=UTC', headers: auth },
  { path: '/forest/authentication/callback?code=1&state=2' },
  { path: '/forest/authentication?timezone=UTC', headers: auth },
  { path: '/forest/', headers: auth },
  { path: '/forest' },
  { path: '/Forest/orders?timezone=UTC', headers: auth },
  { path: '/forestx/orders?timezone=UTC', headers: auth },
  { path: '/forest/orders?timezone=UTC' },
  { path: '/forest/orders/101?timezone=UTC', headers: { Authorization: 'Token abc' } },
  {
    path: '/forest/orders/count?timezone=UTC',
    headers: { ...auth, Origin: 'https://app.test', Vary: 'Accept' },
  },
  { path: '/forest/orders?timezone=UTC', headers: { ...auth, 'Content-Type': 'text/plain' } },
];

describe("the route table (list, count, get one) against express's routers", () => {
  it.each(CASES)('answers GET $path exactly as express does', async (sent) => {
    const { hot, reference } = pair();
    const [fast, slow] = await Promise.all([answer(hot, sent), answer(reference, sent)]);
    expect(fast).toEqual(slow);
  });

  it('keeps the IP whitelist after the session check', async () => {
    const { hot, reference } = pair({
      ipWhitelist: { rules: [], isAllowed: (ip) => ip === '10.0.0.1' },
    });
    for (const sent of [
      { path: '/forest/orders?timezone=UTC', headers: { 'X-Forwarded-For': '203.0.113.9' } },
      {
        path: '/forest/orders?timezone=UTC',
        headers: { ...auth, 'X-Forwarded-For': '203.0.113.9' },
      },
      {
        path: '/forest/orders/101?timezone=UTC',
        headers: { ...auth, 'X-Forwarded-For': '10.0.0.1' },
      },
    ]) {
      const [fast, slow] = await Promise.all([answer(hot, sent), answer(reference, sent)]);
      expect(fast).toEqual(slow);
    }
    const refused = await answer(hot, {
      path: '/forest/orders/count?timezone=UTC',
      headers: { ...auth, 'X-Forwarded-For': '203.0.113.9' },
    });
    expect(refused.status).toBe(403);
  });

  it('echoes only allowed origins under a custom prefix', async () => {
    const { hot, reference } = pair({
      options: {
        prefix: '/api/v1/forest',
        corsOrigins: ['https://app.test'],
      },
    });
    for (const origin of ['https://app.test', 'https://evil.test']) {
      const sent = {
        path: '/api/v1/forest/orders/count?timezone=UTC',
        headers: { ...auth, Origin: origin },
      };
      const [fast, slow] = await Promise.all([answer(hot, sent), answer(reference, sent)]);
      expect(fast).toEqual(slow);
      expect(fast.status).toBe(200);
    }
  });

  it('logs one access line per request, as express does, and none above Info', async () => {
    const { hot, reference, lines } = pair({}, 'Info');
    const sent = { path: '/forest/orders/101?timezone=UTC&token=abc', headers: auth };
    await answer(hot, sent);
    await answer(reference, sent);
    expect(lines[0]).toHaveLength(1);
    expect(lines[0]?.[0]?.replace(/[\d.]+ms$/, '')).toBe(lines[1]?.[0]?.replace(/[\d.]+ms$/, ''));
    expect(lines[0]?.[0]).toMatch(
      /^\[200\] GET \/forest\/orders\/101\?timezone=UTC&token=\*\*\* - /,
    );
    const quiet = pair({}, 'Warn');
    await answer(quiet.hot, sent);
    expect(quiet.lines[0]).toHaveLength(0);
  });

  it('never reads a GET body (§1.2: bodies are parsed for POST, PUT, PATCH and DELETE)', async () => {
    const { hot, reference } = pair();
    for (const app of [hot, reference]) {
      const response = await request(app)
        .get('/forest/orders/101?timezone=UTC')
        .set(auth)
        .set('Content-Type', 'application/json')
        .send('{"broken":');
      expect(response.status).toBe(200);
      expect(response.body.data.id).toBe('101');
    }
  });
});
