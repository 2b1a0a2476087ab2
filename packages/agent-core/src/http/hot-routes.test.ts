import express from 'express';
import request from 'supertest';

import type { AgentServices } from '../platform/agent-services';
import type { LoggerLevel } from '../toolkit/interfaces/logger';
import { createAgentRouter } from './create-agent-router';
import { bearer, createTestServices } from './test-fixtures/shop-services';

/**
 * The data routes most clients call (list, count, get one) and the stages around them. The
 * snapshots were recorded from the agent's former express routers, the reference the route table
 * was held to: the table must keep answering exactly the same (status, headers, body), on every
 * path shape express's router read its own way (escapes, trailing and doubled slashes, case).
 */
function agent(
  overrides: Omit<Partial<AgentServices>, 'options'> & {
    options?: Partial<AgentServices['options']>;
  } = {},
  loggerLevel?: LoggerLevel,
) {
  const lines: string[] = [];
  const { options, ...rest } = overrides;
  const base = createTestServices(undefined, rest);
  const services: AgentServices = {
    ...base,
    options: { ...base.options, ...options, loggerLevel },
    logger: (level, message) => {
      if (level === 'Info') lines.push(message);
    },
  };
  const app = express();
  app.use(createAgentRouter(services));
  return { app, lines };
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
  // Express's `res.json` hashed a JSON body into an ETag; JSON answers no longer carry one.
  if (String(seen['content-type']).startsWith('application/json')) delete seen.etag;
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

describe('the route table (list, count, get one)', () => {
  it.each(CASES)('answers GET $path as the express routers did', async (sent) => {
    expect(await answer(agent().app, sent)).toMatchSnapshot();
  });

  it('keeps the IP whitelist after the session check', async () => {
    const { app } = agent({
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
      expect(await answer(app, sent)).toMatchSnapshot();
    }
    const refused = await answer(app, {
      path: '/forest/orders/count?timezone=UTC',
      headers: { ...auth, 'X-Forwarded-For': '203.0.113.9' },
    });
    expect(refused.status).toBe(403);
  });

  it('echoes only allowed origins under a custom prefix', async () => {
    const { app } = agent({
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
      const seen = await answer(app, sent);
      expect(seen).toMatchSnapshot();
      expect(seen.status).toBe(200);
    }
  });

  it('logs one access line per request, and none above Info', async () => {
    const { app, lines } = agent({}, 'Info');
    const sent = { path: '/forest/orders/101?timezone=UTC&token=abc', headers: auth };
    await answer(app, sent);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[200\] GET \/forest\/orders\/101\?timezone=UTC&token=\*\*\* - [\d.]+ms$/,
    );
    const quiet = agent({}, 'Warn');
    await answer(quiet.app, sent);
    expect(quiet.lines).toHaveLength(0);
  });

  it('never reads a GET body (§1.2: bodies are parsed for POST, PUT, PATCH and DELETE)', async () => {
    const response = await request(agent().app)
      .get('/forest/orders/101?timezone=UTC')
      .set(auth)
      .set('Content-Type', 'application/json')
      .send('{"broken":');
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe('101');
  });
});
