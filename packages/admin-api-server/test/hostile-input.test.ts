import { request as httpRequest } from 'node:http';
import { useTestDatabase } from '@canopy/test-databases';
import type { AdminApiServer } from '../src';
import { startWithCredentials, type Seed } from './helpers/test-server';

// Finding 3 of issue 17: each input below answered a 500 (or read a body for nobody); each must be
// a 4xx in its protocol's shape, decided by the shared parsers before the database sees it.

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let port: number;
let s: Seed;
let secret: string;
let session: string;

beforeAll(async () => {
  ({ server, port, s, secret, session } = await startWithCredentials(db()));
});
afterAll(() => server.close());

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const DEEP = '['.repeat(100_000) + ']'.repeat(100_000);
// Deep but small, for routes whose size limit (32 kB for registrations) comes before the depth.
const DEEP_SMALL = '['.repeat(1_000) + ']'.repeat(1_000);

interface Call {
  token?: 'app' | 'session';
  secret?: boolean;
  body?: string;
  headers?: Record<string, string>;
}

async function call(method: string, path: string, options: Call = {}) {
  const token = options.token === 'app' ? s.tokens.all : options.token ? session : undefined;
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(options.secret ? { 'forest-secret-key': secret } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const env = () => `/v1/project/${s.project.name}/environment/Production`;
const proj = () => `/v1/project/${s.project.name}`;

// [method, path, options, status, what the message says]
const PUBLIC: [string, string, Call, number, RegExp][] = [
  ['GET', `{env}/activity-logs?userId=3000000000`, { token: 'app' }, 400, /userId.*2147483647/],
  ['GET', `{env}/activity-logs?userId=1e30`, { token: 'app' }, 400, /userId/],
  ['GET', `{env}/notes?userId=3000000000`, { token: 'app' }, 400, /userId/],
  ['GET', `{proj}/admin-logs?userId=3000000000`, { token: 'app' }, 400, /userId/],
  ['GET', `{env}/notes/2147483648`, { token: 'app' }, 400, /noteId/],
  ['DELETE', `{proj}/members/2147483648`, { token: 'session' }, 400, /userId/],
  ['DELETE', `{proj}/application-tokens/9999999999`, { token: 'session' }, 400, /tokenId/],
  [
    'GET',
    `{env}/activity-logs?createdAt.gte=2026-06-30T23:59:60Z`,
    { token: 'app' },
    400,
    /leap second/,
  ],
  [
    'GET',
    `{env}/activity-logs?createdAt.lt=-100000-01-01T00:00:00Z`,
    { token: 'app' },
    400,
    /createdAt\.lt/,
  ],
  ['GET', `{env}/notes?updatedAt.lt=2026-06-30T23:59:60Z`, { token: 'app' }, 400, /updatedAt\.lt/],
  [
    'GET',
    `{proj}/admin-logs?createdAt.gt=2026-02-30T00:00:00Z`,
    { token: 'app' },
    400,
    /createdAt\.gt/,
  ],
  [
    'GET',
    `{env}/activity-logs?cursor=${b64([1, '9999999999999999999'])}`,
    { token: 'app' },
    400,
    /cursor/,
  ],
  [
    'GET',
    `{env}/activity-logs?cursor=${b64([9007199254740991, '1'])}`,
    { token: 'app' },
    400,
    /cursor/,
  ],
  ['GET', `{proj}/admin-logs?cursor=${b64([-8.64e15, '1'])}`, { token: 'app' }, 400, /cursor/],
  ['GET', `{env}/notes?cursor=${b64([9007199254740991])}`, { token: 'app' }, 400, /cursor/],
  ['GET', `{env}/activity-logs?recordId=a%00b`, { token: 'app' }, 400, /NUL/],
  ['GET', `/v1/project/Sh%00op/environment/Production/activity-logs`, { token: 'app' }, 400, /NUL/],
  ['GET', `/v1/project/Sh%00op`, { token: 'session' }, 400, /NUL/],
  [
    'POST',
    `{env}/notes`,
    {
      token: 'app',
      body: JSON.stringify({ title: 'a\u0000b', recordId: '1', collectionName: 'c', message: 'x' }),
    },
    400,
    /NUL/,
  ],
  ['POST', `{env}/notes`, { token: 'app', body: DEEP }, 400, /deeper than 64/],
  ['POST', `{proj}/teams`, { token: 'session', body: DEEP }, 400, /deeper than 64/],
  [
    'POST',
    `{proj}/application-tokens`,
    {
      token: 'session',
      body: JSON.stringify({ name: 'x', scopes: ['all'], expiresAt: '2026-06-30T23:59:60Z' }),
    },
    400,
    /expiresAt/,
  ],
  [
    'POST',
    `{proj}/application-tokens`,
    {
      token: 'session',
      body: JSON.stringify({ name: 'x', scopes: ['all'], expiresAt: '+275760-09-13T00:00:00Z' }),
    },
    400,
    /expiresAt/,
  ],
  [
    'POST',
    `{env}/notes`,
    { token: 'app', body: '{}', headers: { 'content-encoding': 'foo' } },
    415,
    /Content-Encoding/,
  ],
  ['POST', `/oauth/register`, { body: DEEP_SMALL }, 400, /deeper than 64/],
  ['POST', `/oauth/register`, { body: DEEP }, 413, /larger than/],
];

it.each(PUBLIC)(
  '%s %s answers its 4xx as {code, message}',
  async (method, path, options, status, message) => {
    const url = path.replace('{env}', env()).replace('{proj}', proj());
    const response = await call(method, url, options);
    expect(response.status).toBe(status);
    expect(Object.keys(response.body).sort()).toEqual(['code', 'message']);
    expect(response.body.message).toMatch(message);
  },
);

const AGENT: [string, string, Call, number, RegExp][] = [
  [
    'POST',
    '/liana/v1/activity-logs',
    { secret: true, body: '{}', headers: { 'content-encoding': 'foo' } },
    415,
    /Content-Encoding/,
  ],
  ['GET', '/liana/v4/permissions/renderings/%', { secret: true }, 400, /percent-encoded/],
  ['GET', '/liana/v4/permissions/renderings/99999999999', { secret: true }, 404, /Rendering/],
  ['GET', '/liana/v2/renderings/99999999999/authorization', { secret: true }, 401, /forest-token/],
  ['POST', '/liana/v1/activity-logs', { secret: true, body: DEEP }, 400, /deeper than 64/],
  ['POST', '/forest/apimaps', { secret: true, body: DEEP }, 400, /deeper than 64/],
  ['GET', '/liana/v4/permissions/users?x=%00', { secret: true }, 400, /NUL/],
];

// Registration is oidc-provider's own endpoint (it reads the body itself): RFC 7591 errors.
it.each([
  ['too large for the provider (56 kB)', DEEP],
  ['nested deeper than 64 levels', DEEP_SMALL],
])(
  'POST /oidc/reg refuses a body %s with a 400 invalid_request or invalid_client_metadata',
  async (_what, body) => {
    const response = await call('POST', '/oidc/reg', { secret: true, body });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/^invalid_(request|client_metadata)$/);
    expect(typeof response.body.error_description).toBe('string');
  },
);

it.each(AGENT)(
  'agent route %s %s answers a 4xx as {errors: [{detail}]}',
  async (method, path, options, status, detail) => {
    const response = await call(method, path, options);
    expect(response.status).toBe(status);
    expect(response.body.errors[0].detail).toMatch(detail);
  },
);

// A bad log is refused on its own (the agent resends refused batches, so one must not block the
// rest): the batch answers 200 and names the log and the field at fault.
it.each([
  { createdAt: '2026-06-30T23:59:60Z' },
  { createdAt: '-100000-01-01T00:00:00Z' },
  { userId: 3_000_000_000 },
  { renderingId: 1e30 },
])('refuses the activity log with %j on its own, naming the field', async (fault) => {
  const log = {
    id: 'a1',
    createdAt: '2026-01-31T12:00:00.000Z',
    type: 'read',
    action: 'index',
    label: 'x',
    userId: 1,
    ...fault,
  };
  const response = await call('POST', '/liana/v1/activity-logs', {
    secret: true,
    body: JSON.stringify({ logs: [log] }),
  });
  expect(response.status).toBe(200);
  expect(response.body.accepted).toBe(0);
  expect(response.body.rejected).toEqual([
    { index: 0, id: 'a1', reason: expect.stringMatching(new RegExp(Object.keys(fault)[0]!)) },
  ]);
});

it('answers GET /oidc/device/auth (a device resume link of no login) with an OAuth 400', async () => {
  const response = await call('GET', '/oidc/device/auth');
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ error: 'invalid_request' });
});

it('answers an out-of-range environmentId on /oauth/authorize with an OAuth 400', async () => {
  const registered = await call('POST', '/oauth/register', {
    body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'] }),
  });
  const response = await call(
    'GET',
    `/oauth/authorize?client_id=${registered.body.client_id}&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}&code_challenge=x&code_challenge_method=S256&environmentId=3000000000`,
  );
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ error: 'invalid_request' });
});

/**
 * Sends the headers and the first chunk of a body announced as 21 MB, and resolves with the status
 * the server answers while the rest was never sent: proof that it refused before reading.
 */
function statusBeforeBody(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': 21 * 1_048_576, ...headers },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    req.write('{"logs": [');
    setTimeout(() => reject(new Error('no answer before the body was sent')), 5_000).unref();
  });
}

it.each([
  ['/liana/v1/activity-logs', {}],
  ['/forest/apimaps', {}],
  ['/forest/apimaps/hashcheck', { 'forest-secret-key': 'f'.repeat(64) }],
  ['/oidc/reg', {}],
])('refuses %s without a valid env secret before reading its body', async (path, headers) => {
  expect(await statusBeforeBody(path, headers)).toBe(401);
});

it('refuses public writes without a valid token before reading their body', async () => {
  expect(await statusBeforeBody(`${env()}/notes`, {})).toBe(401);
  expect(await statusBeforeBody(`${proj()}/teams`, {})).toBe(401);
  expect(await statusBeforeBody('/v1/projects', {})).toBe(401);
});
