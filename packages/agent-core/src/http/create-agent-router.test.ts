import express from 'express';
import jwt from 'jsonwebtoken';
import request from 'supertest';

import type { AgentServices } from '../platform/agent-services';
import { createAgentRouter } from './create-agent-router';
import { signSessionToken } from '../protocol/auth/session-token';
import { signMcpAccessToken } from '../mcp/oauth/mcp-tokens';

const AUTH_SECRET = 'a'.repeat(64);

function servicesWith(overrides: Partial<AgentServices> = {}): AgentServices {
  return {
    dataSource: {
      collections: [],
      schema: { charts: [] },
    } as unknown as AgentServices['dataSource'],
    options: {
      authSecret: AUTH_SECRET,
      prefix: '/forest',
      isProduction: false,
      useUnsafeActionEndpoint: false,
      corsOrigins: ['https://console.example.com', 'https://admin.example.com'],
    },
    logger: () => undefined,
    permissions: {} as AgentServices['permissions'],
    activityLogs: { record: () => undefined },
    ipWhitelist: null,
    authentication: {
      getAuthorizationUrl: async (id) => `https://platform.test/oidc/auth?state=${id}`,
      handleCallback: async () => ({
        id: 7,
        email: 'maria@shop.test',
        firstName: 'Maria',
        lastName: 'Lopez',
        team: 'Support',
        role: 'Agent',
        permissionLevel: 'user',
        renderingId: 412,
        tags: { region: 'EMEA' },
      }),
    },
    ...overrides,
  };
}

function appWith(overrides: Partial<AgentServices> = {}) {
  const app = express();
  app.use(createAgentRouter(servicesWith(overrides)));
  return app;
}

const claims = {
  id: 7,
  email: 'maria@shop.test',
  firstName: 'Maria',
  lastName: 'Lopez',
  team: 'Support',
  role: 'Agent',
  permissionLevel: 'user' as const,
  renderingId: 412,
  tags: {},
};

describe('createAgentRouter pipeline', () => {
  it('answers the healthcheck at /forest and /forest/', async () => {
    const app = appWith();
    for (const path of ['/forest', '/forest/']) {
      const response = await request(app).get(path).expect(200);
      expect(response.body).toEqual({ error: null, message: 'Agent is running' });
    }
  });

  it('serves under a custom prefix only', async () => {
    const app = appWith({ options: { ...servicesWith().options, prefix: '/api/v1/forest' } });
    await request(app).get('/api/v1/forest').expect(200);
    await request(app).get('/forest').expect(404);
  });

  it('answers a preflight from an allowed origin with 204, the origin and headers', async () => {
    const response = await request(appWith())
      .options('/forest/orders')
      .set('Origin', 'https://admin.example.com')
      .set('Access-Control-Request-Method', 'PUT')
      .set('Access-Control-Request-Headers', 'authorization,content-type')
      .set('Access-Control-Request-Private-Network', 'true')
      .expect(204);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': 'https://admin.example.com',
      'access-control-allow-credentials': 'true',
      'access-control-max-age': '86400',
      'access-control-allow-methods': 'GET,HEAD,PUT,POST,DELETE,PATCH',
      'access-control-allow-headers': 'authorization,content-type',
      'access-control-allow-private-network': 'true',
    });
    expect(response.headers.vary).toContain('Origin');
  });

  it.each(['https://evil.example', 'null', 'https://console.example.com.evil.example'])(
    'gives no CORS header to the origin %s, preflight or not',
    async (origin) => {
      const preflight = await request(appWith())
        .options('/forest/products')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type')
        .expect(204);
      const token = signSessionToken(claims, AUTH_SECRET);
      const read = await request(appWith())
        .get('/forest/no/such/route/here')
        .set('Origin', origin)
        .set('Authorization', `Bearer ${token}`)
        .expect(404);
      for (const response of [preflight, read]) {
        expect(response.headers['access-control-allow-origin']).toBeUndefined();
        expect(response.headers['access-control-allow-credentials']).toBeUndefined();
        expect(response.headers['access-control-allow-methods']).toBeUndefined();
        expect(response.headers.vary).toContain('Origin');
      }
    },
  );

  it('reads no body before the session check: 401 first, then the plain-text 400', async () => {
    const denied = await request(appWith())
      .post('/forest/orders')
      .set('Content-Type', 'application/json')
      .send('{"data":')
      .expect(401);
    expect(denied.body.errors[0].detail).toBe('Authentication Error');
    const token = signSessionToken(claims, AUTH_SECRET);
    const response = await request(appWith())
      .post('/forest/orders')
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send('{"data":')
      .expect(400);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).toBe('Bad Request');
  });

  it('answers a body past the limit with a plain-text 413, once authenticated only', async () => {
    const big = JSON.stringify({ data: 'x'.repeat(51 * 1024 * 1024) });
    await request(appWith())
      .post('/forest/orders')
      .set('Content-Type', 'application/json')
      .send(big)
      .expect(401);
    const token = signSessionToken(claims, AUTH_SECRET);
    const response = await request(appWith())
      .post('/forest/orders')
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send(big)
      .expect(413);
    expect(response.text).toBe('Payload Too Large');
    // Two 51 MB uploads: seconds on a loaded machine.
  }, 30_000);

  it('refuses an MCP access token on the REST routes, saying what it is', async () => {
    const session = signSessionToken(claims, AUTH_SECRET);
    const mcp = signMcpAccessToken(
      claims,
      { platformToken: 'platform', scopes: ['mcp:read'], clientId: 'ai-client' },
      AUTH_SECRET,
      600,
    );
    const refused = await request(appWith())
      .post('/forest/products')
      .set('Authorization', `Bearer ${mcp}`)
      .send({ data: { attributes: { name: 'Mug' } } })
      .expect(401);
    expect(refused.body.errors[0]).toEqual({
      name: 'UnauthorizedError',
      detail:
        'Authentication Error: this is an MCP access token, and only an agent session token is accepted here',
      status: 401,
    });
    // The same identity as a session token gets through the session check.
    const passed = await request(appWith())
      .post('/forest/products')
      .set('Authorization', `Bearer ${session}`)
      .send({ data: { attributes: { name: 'Mug' } } });
    expect(passed.status).not.toBe(401);
  });

  it('refuses a session token of a signed-out user, and takes a later one', async () => {
    const revoked = new Map<number, number>();
    const app = appWith({
      revocations: { isRevoked: (id, issuedAt) => issuedAt <= (revoked.get(id) ?? -1) },
    });
    const token = signSessionToken(claims, AUTH_SECRET);
    await request(app)
      .get('/forest/no/such/route/here')
      .set('Authorization', `Bearer ${token}`)
      .expect(404);
    revoked.set(claims.id, Math.floor(Date.now() / 1000));
    for (const path of ['/forest/orders/count', '/forest/no/such/route/here']) {
      const refused = await request(app)
        .get(path)
        .set('Authorization', `Bearer ${token}`)
        .expect(401);
      expect(refused.body.errors[0].detail).toBe(
        'Authentication Error: this session was signed out; sign in again',
      );
    }
    const later = jwt.sign(
      { ...claims, typ: 'agent-session', iat: Math.floor(Date.now() / 1000) + 2 },
      AUTH_SECRET,
      { expiresIn: 3600, audience: 'canopy-agent-rest', issuer: 'canopy-agent' },
    );
    await request(app)
      .get('/forest/no/such/route/here')
      .set('Authorization', `Bearer ${later}`)
      .expect(404);
  });

  it('answers 401 without a token, and a plain 404 for an unknown path with one', async () => {
    const app = appWith();
    const denied = await request(app).get('/forest/no/such/route/here').expect(401);
    expect(denied.body).toEqual({
      errors: [{ name: 'UnauthorizedError', detail: 'Authentication Error', status: 401 }],
    });
    const token = signSessionToken(claims, AUTH_SECRET);
    const missing = await request(app)
      .get('/forest/no/such/route/here')
      .set('Authorization', `Bearer ${token}`)
      .expect(404);
    expect(missing.text).toBe('Not Found');
  });

  it.each([
    ['GET', '/forest/orders/%E0%A4%A'],
    ['GET', '/forest/%E0%A4%A/count'],
    ['DELETE', '/forest/orders/%E0%A4%A'],
    ['PUT', '/forest/orders/%E0%A4%A'],
  ])('answers 400 for an undecodable path segment (%s %s)', async (method, path) => {
    const token = signSessionToken(claims, AUTH_SECRET);
    const response = await request(appWith())
      [method.toLowerCase() as 'get' | 'delete' | 'put'](path)
      .set('Authorization', `Bearer ${token}`)
      .expect(400);
    expect(response.body).toEqual({
      errors: [
        {
          name: 'URIError',
          detail: "Failed to decode param '%E0%A4%A'",
          status: 400,
        },
      ],
    });
  });

  it.each([
    ['alg none', () => jwt.sign(claims, '', { algorithm: 'none' })],
    ['another secret', () => jwt.sign(claims, 'b'.repeat(64), { algorithm: 'HS256' })],
    ['HS512', () => jwt.sign(claims, AUTH_SECRET, { algorithm: 'HS512' })],
    [
      'expired',
      () => jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, AUTH_SECRET),
    ],
    ['tampered', () => `${signSessionToken(claims, AUTH_SECRET).slice(0, -3)}abc`],
    ['claims of the wrong type', () => jwt.sign({ ...claims, id: 'seven' }, AUTH_SECRET)],
  ])('refuses a token signed with %s', async (_label, makeToken) => {
    const response = await request(appWith())
      .get('/forest/orders')
      .set('Authorization', `Bearer ${makeToken()}`)
      .expect(401);
    expect(response.body.errors[0]).toEqual({
      name: 'UnauthorizedError',
      detail: 'Authentication Error',
      status: 401,
    });
  });

  it('explains a malformed Authorization header', async () => {
    const response = await request(appWith())
      .get('/forest/orders')
      .set('Authorization', 'Token abc')
      .expect(401);
    expect(response.body.errors[0].detail).toBe(
      'Bad Authorization header format. Format is "Authorization: Bearer <token>"',
    );
  });

  it('reads the token from the cookie before the header on a first-party read', async () => {
    const token = signSessionToken(claims, AUTH_SECRET);
    await request(appWith())
      .get('/forest/no/such/route/here')
      .set('Cookie', `forest_session_token=${token}`)
      .set('Authorization', 'Bearer broken')
      .expect(404);
    await request(appWith())
      .get('/forest/no/such/route/here')
      .set('Cookie', `forest_session_token=${token}`)
      .set('Origin', 'https://admin.example.com')
      .expect(404);
  });

  it.each([
    ['a write', 'post', {}],
    ['a read started by another site', 'get', { 'Sec-Fetch-Site': 'cross-site' }],
    ['a read from another origin', 'get', { Origin: 'https://evil.example' }],
  ] as const)('does not take the session cookie alone for %s', async (_label, method, headers) => {
    const token = signSessionToken(claims, AUTH_SECRET);
    const refused = await request(appWith())
      [method]('/forest/no/such/route/here')
      .set('Cookie', `forest_session_token=${token}`)
      .set(headers)
      .expect(401);
    expect(refused.body.errors[0].detail).toBe(
      'Authentication Error: the session cookie is accepted only on GET requests from an allowed origin; send Authorization: Bearer <token>',
    );
    // The header still authenticates such a request.
    await request(appWith())
      [method]('/forest/no/such/route/here')
      .set('Cookie', `forest_session_token=${token}`)
      .set('Authorization', `Bearer ${token}`)
      .set(headers)
      .expect(404);
  });

  it('rejects a forwarded IP outside the whitelist after the session check', async () => {
    const app = appWith({
      ipWhitelist: { rules: [], isAllowed: (ip) => ip === '10.0.0.1' },
    });
    const token = signSessionToken(claims, AUTH_SECRET);
    await request(app)
      .get('/forest/no/such/route/here')
      .set('X-Forwarded-For', '203.0.113.9')
      .expect(401);
    const rejected = await request(app)
      .get('/forest/no/such/route/here')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Forwarded-For', '203.0.113.9')
      .expect(403);
    expect(rejected.body.errors[0]).toEqual({
      name: 'ForbiddenError',
      detail: 'IP address rejected (203.0.113.9)',
      status: 403,
    });
    await request(app)
      .get('/forest/no/such/route/here')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Forwarded-For', '10.0.0.1')
      .expect(404);
  });

  it('starts a login and signs a session token on the callback', async () => {
    const app = appWith();
    const start = await request(app).post('/forest/authentication').send({ renderingId: '412' });
    expect(start.body).toEqual({ authorizationUrl: 'https://platform.test/oidc/auth?state=412' });
    const bad = await request(app).post('/forest/authentication').send({ renderingId: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].detail).toBe('Rendering id must be a number');

    const callback = await request(app)
      .get('/forest/authentication/callback')
      .query({ code: 'abc', state: '{"renderingId":412}' })
      .expect(200);
    expect(callback.body.tokenData).toMatchObject({
      id: 7,
      renderingId: 412,
      tags: { region: 'EMEA' },
    });
    expect(jwt.verify(callback.body.token, AUTH_SECRET)).toMatchObject({ id: 7 });

    const badState = await request(app)
      .get('/forest/authentication/callback')
      .query({ code: 'abc', state: 'nope' })
      .expect(400);
    expect(badState.body.errors[0].detail).toBe('Failed to retrieve renderingId from query[state]');
  });
});

describe('login failures', () => {
  it('answers the OIDC error body for a refused code and the platform refusal for a refused user', async () => {
    const failing = (status: 401 | 403) =>
      appWith({
        authentication: {
          getAuthorizationUrl: async () => '',
          handleCallback: async () => {
            throw Object.assign(new Error('refused'), {
              name: 'AuthenticationError',
              status,
              error: status === 401 ? 'invalid_grant' : 403,
              description: status === 401 ? 'grant request is invalid' : 'User is not allowed',
              state: '{"renderingId":412}',
            });
          },
        },
      });
    const query = { code: 'abc', state: '{"renderingId":412}' };
    const oidc = await request(failing(401))
      .get('/forest/authentication/callback')
      .query(query)
      .expect(401);
    expect(oidc.body).toEqual({
      error: 'invalid_grant',
      error_description: 'grant request is invalid',
      state: '{"renderingId":412}',
    });
    const refused = await request(failing(403))
      .get('/forest/authentication/callback')
      .query(query)
      .expect(403);
    expect(refused.body).toEqual({ error: 403, error_description: 'User is not allowed' });
  });
});
