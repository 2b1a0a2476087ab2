import { useTestDatabase } from '@canopy/test-databases';
import fc from 'fast-check';
import { buildOpenApiDocument, type AdminApiServer } from '../src';
import { startWithCredentials, type Seed } from './helpers/test-server';

/**
 * Property test of issue 17: over every route of the server — the public `/v1` API and the
 * management API (from the express route table and the OpenAPI document), the MCP OAuth routes, the
 * OIDC provider's endpoints (from its discovery document) and the agent protocol — requests
 * with malformed ids, dates, cursors, strings, bodies and encodings never answer a 5xx, never
 * hang, and never carry a stack trace. The seed is fixed (FUZZ_SEED to change it, FUZZ_RUNS for
 * the count); the counts are printed.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 17_2026);
const RUNS = Number(process.env.FUZZ_RUNS ?? 5_000);
const CONCURRENCY = 6;
const REQUEST_TIMEOUT_MS = 5_000;

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let port: number;
let s: Seed;
let secret: string;
let session: string;
let valid: Record<string, string>;

interface Route {
  method: string;
  path: string;
  query: string[];
}
let routes: Route[];

/** Every `method path` of the express route table, nested routers included. */
function routeTable(stack: unknown[]): { method: string; path: string }[] {
  return stack.flatMap((layer) => {
    const { route, handle } = layer as {
      route?: { path: string; methods: Record<string, boolean> };
      handle?: { stack?: unknown[] };
    };
    if (route) {
      return Object.keys(route.methods)
        .filter((method) => method !== '_all')
        .map((method) => ({ method: method.toUpperCase(), path: route.path }));
    }
    return handle?.stack ? routeTable(handle.stack) : [];
  });
}

beforeAll(async () => {
  ({ server, port, s, secret, session } = await startWithCredentials(db()));
  const note = await fetch(
    `http://127.0.0.1:${port}/v1/project/${s.project.name}/environment/Production/notes`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${s.tokens.all}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 't', recordId: '1', collectionName: 'orders', message: 'm' }),
    },
  ).then((response) => response.json() as Promise<{ id: number }>);
  const client = await fetch(`http://127.0.0.1:${port}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/callback'] }),
  }).then((response) => response.json() as Promise<{ client_id: string }>);
  const team = await server.knex('teams').where({ project_id: s.project.id }).first('id');
  valid = {
    projectName: s.project.name,
    environmentName: 'Production',
    noteId: String(note.id),
    userId: String(s.editor.id),
    tokenId: '1',
    roleName: 'Admin',
    teamName: 'Support',
    renderingId: String(team.id),
    clientId: client.client_id,
    uid: 'unknown-interaction',
  };

  // Query parameters each route documents; the routes outside the OpenAPI document get the
  // parameters of their protocol.
  const document = buildOpenApiDocument() as {
    paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
  };
  const documented = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const express = path.replace(/\{(\w+)\}/g, ':$1');
      documented.set(
        `${method.toUpperCase()} ${express}`,
        (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      );
    }
  }
  const oauthParams = [
    'client_id',
    'redirect_uri',
    'code_challenge',
    'code_challenge_method',
    'response_type',
    'scope',
    'state',
    'environmentId',
    'renderingId',
    'code',
  ];
  const table = routeTable(
    (server.app as unknown as { router: { stack: unknown[] } }).router.stack,
  );
  const discovery = (await fetch(
    `http://127.0.0.1:${port}/oidc/.well-known/openid-configuration`,
  ).then((response) => response.json())) as Record<string, unknown>;
  const oidcEndpoints = Object.entries(discovery)
    .filter(([name, value]) => name.endsWith('_endpoint') && typeof value === 'string')
    .map(([, value]) => new URL(value as string).pathname);
  const unique = new Map(
    [
      ...table,
      ...oidcEndpoints.flatMap((path) => [
        { method: 'GET', path },
        { method: 'POST', path },
      ]),
      { method: 'GET', path: '/oidc/device/:uid' },
    ].map(({ method, path }) => [
      `${method} ${path}`,
      { method, path, query: documented.get(`${method} ${path}`) ?? oauthParams },
    ]),
  );
  routes = [...unique.values()];
}, 60_000);
afterAll(() => server.close());

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Values that broke, or could break, a parser: ids, dates, cursors, strings, encodings. */
const hostileText = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '2147483648',
    '3000000000',
    '9999999999',
    '9223372036854775808',
    '1e30',
    '1.5',
    'NaN',
    '0x10',
    '',
    '%00',
    'a%00b',
    '%',
    '%E0%A4%A',
    '%FF',
    '%2F..%2F',
    '2026-06-30T23:59:60Z',
    '-100000-01-01T00:00:00Z',
    '+275760-09-13T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '2026-01-31T12:00:00.000Z',
    b64([1, '9999999999999999999']),
    b64([9007199254740991]),
    b64([9007199254740991, '1']),
    b64([-8.64e15, '1']),
    b64([1, '1']),
    b64({}),
    'x'.repeat(2_000),
    '𝒳😀',
    "'; drop table users; --",
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
);

const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    'a\u0000b',
    2147483648,
    1e30,
    -1,
    '2026-06-30T23:59:60Z',
    '-100000-01-01T00:00:00Z',
    null,
    true,
    [],
    {},
  ),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
);

const bodyKeys = fc.constantFrom(
  'title',
  'recordId',
  'collectionName',
  'message',
  'content',
  'teamName',
  'name',
  'scopes',
  'expiresAt',
  'email',
  'permissionLevel',
  'password',
  'rules',
  'ssoEnabled',
  'type',
  'logs',
  'redirect_uris',
  'grant_type',
  'code',
  'client_id',
  'schemaFileHash',
  'data',
  'meta',
  'archived',
  'rights',
  'tags',
);

const body = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc
      .dictionary(bodyKeys, hostileJson, { maxKeys: 6 })
      .map((value) => ({ type: 'application/json', text: JSON.stringify(value) })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 60, max: 100_000 }).map((depth) => ({
      type: 'application/json',
      text: '['.repeat(depth) + ']'.repeat(depth),
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('{', '{"a":', 'null', '"x"', '[1,2', '\u0000', '{"a":"\\u0000"}')
      .map((text) => ({ type: 'application/json', text })),
  },
  {
    weight: 1,
    arbitrary: fc.dictionary(bodyKeys, hostileText, { maxKeys: 4 }).map((value) => ({
      type: 'application/x-www-form-urlencoded',
      text: Object.entries(value)
        .map(([key, v]) => `${key}=${v}`)
        .join('&'),
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('text/plain', 'application/xml', 'application/json; charset=latin-7')
      .map((type) => ({ type, text: '{"title":"x"}' })),
  },
);

type Credential = 'right' | 'application' | 'session' | 'secret' | 'garbage' | 'none';

const request = fc.record({
  route: fc.constant(0),
  params: fc.dictionary(
    fc.constantFrom(
      'projectName',
      'environmentName',
      'noteId',
      'userId',
      'tokenId',
      'roleName',
      'teamName',
      'renderingId',
      'clientId',
      'uid',
    ),
    hostileText,
  ),
  query: fc.array(fc.tuple(fc.nat(), hostileText), { maxLength: 4 }),
  body,
  credential: fc.oneof(
    { weight: 5, arbitrary: fc.constant<Credential>('right') },
    {
      weight: 5,
      arbitrary: fc.constantFrom<Credential>('application', 'session', 'secret', 'garbage', 'none'),
    },
  ),
  encoding: fc.constantFrom(undefined, undefined, undefined, 'foo', 'gzip', 'identity'),
});

/** The credential the route's family takes, so that requests get past authentication too. */
function rightCredential(path: string): Credential {
  if (/^\/v1\/project\/:projectName\/(environment|admin-logs)/.test(path)) return 'application';
  if (path.startsWith('/v1/')) return 'session';
  if (/^\/(liana|forest|oauth\/token|oidc\/reg)/.test(path)) return 'secret';
  return 'none';
}

type Outcome = { status: number; text: string } | { hang: true };

async function send(sample: Sample): Promise<{
  label: string;
  outcome: Outcome;
}> {
  const route = routes[sample.route % routes.length]!;
  const path = route.path.replace(
    /:(\w+)/g,
    (_match, name: string) => sample.params[name] ?? encodeURIComponent(valid[name] ?? 'x'),
  );
  const query = sample.query
    .map(([index, value]) =>
      route.query.length === 0 ? '' : `${route.query[index % route.query.length]}=${value}`,
    )
    .filter(Boolean)
    .join('&');
  const url = `${path}${query ? `?${query}` : ''}`;
  const headers: Record<string, string> = {};
  const credential =
    sample.credential === 'right' ? rightCredential(route.path) : sample.credential;
  if (credential === 'application') headers.authorization = `Bearer ${s.tokens.all}`;
  if (credential === 'session') headers.authorization = `Bearer ${session}`;
  if (credential === 'secret') headers['forest-secret-key'] = secret;
  if (credential === 'garbage') headers.authorization = 'Bearer a.b.c';
  const hasBody = sample.body !== undefined && route.method !== 'GET';
  if (hasBody) headers['content-type'] = sample.body!.type;
  if (hasBody && sample.encoding) headers['content-encoding'] = sample.encoding;
  const label = `${route.method} ${url.slice(0, 200)}`;
  try {
    const response = await fetch(`http://127.0.0.1:${port}${url}`, {
      method: route.method,
      headers,
      body: hasBody ? sample.body!.text : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    // A stream of server-sent events is an answer once its headers arrived.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { label, outcome: { status: response.status, text: '' } };
    }
    return { label, outcome: { status: response.status, text: await response.text() } };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return { label, outcome: { hang: true } };
    throw error;
  }
}

type Sample = {
  route: number;
  params: Record<string, string>;
  query: [number, string][];
  body: { type: string; text: string } | undefined;
  credential: Credential;
  encoding: string | undefined;
};

const STACK_TRACE = /\bat [\w.<>]+ \(|node_modules|\.ts:\d+:\d+|\.js:\d+:\d+|TypeError|RangeError/;

it(`answers ${RUNS} generated hostile requests over every route without a 5xx, a hang or a stack trace`, async () => {
  const samples = fc.sample(request, { seed: SEED, numRuns: RUNS }) as Sample[];
  const failures: string[] = [];
  const byClass: Record<string, number> = {};
  const byRoute = new Map<string, number>();
  let next = 0;
  const started = Date.now();
  async function worker() {
    while (next < samples.length) {
      const index = next++;
      const sample = samples[index]!;
      // Every route in turn, so each gets its share of the requests.
      sample.route = index;
      const { label, outcome } = await send(sample);
      const route = routes[sample.route % routes.length]!;
      byRoute.set(
        `${route.method} ${route.path}`,
        (byRoute.get(`${route.method} ${route.path}`) ?? 0) + 1,
      );
      if ('hang' in outcome) {
        byClass.hang = (byClass.hang ?? 0) + 1;
        failures.push(`${label}: no answer in ${REQUEST_TIMEOUT_MS} ms`);
        continue;
      }
      const statusClass = `${Math.floor(outcome.status / 100)}xx`;
      byClass[statusClass] = (byClass[statusClass] ?? 0) + 1;
      if (outcome.status >= 500)
        failures.push(`${label}: ${outcome.status} ${outcome.text.slice(0, 200)}`);
      else if (STACK_TRACE.test(outcome.text)) {
        failures.push(`${label}: stack trace in ${outcome.text.slice(0, 300)}`);
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `fuzz: seed ${SEED}, ${samples.length} requests over ${byRoute.size} of ${routes.length} routes in ${seconds} s; ` +
      `statuses ${Object.entries(byClass)
        .sort()
        .map(([name, count]) => `${name} ${count}`)
        .join(', ')}`,
  );
  expect(samples.length).toBeGreaterThanOrEqual(Math.min(RUNS, 5_000));
  expect(byRoute.size).toBe(routes.length);
  expect(failures.slice(0, 20)).toEqual([]);
}, 400_000);
