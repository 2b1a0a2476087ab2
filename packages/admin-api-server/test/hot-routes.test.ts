import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { insertActivityLogs, signSessionToken, type AdminApiServer } from '../src';
import { revokeApplicationToken } from '../src/store/application-tokens';
import { TEST_KEYS, seed, startTestServer, tokenFor, type Seed } from './helpers/test-server';

// The hot route (src/http/hot-routes.ts) answers the activity-log list before express: every
// answer it gives must be the one express gives, and what it does not serve reaches express.
const db = useTestDatabase('postgres');
let hot: AdminApiServer;
let reference: AdminApiServer;
let s: Seed;
let other: Seed;
let revoked: string;
let session: string;
const T0 = Date.parse('2026-03-01T10:00:00.000Z');

beforeAll(async () => {
  hot = await startTestServer(db());
  reference = await startTestServer(db(), { hotRoutes: false });
  s = await seed(hot, 'Hot Shop');
  other = await seed(hot, 'Other');
  const teams = await hot.knex('teams').where({ project_id: s.project.id });
  const team = (name: string) => teams.find((t: { name: string }) => t.name === name).id;
  await insertActivityLogs(
    hot.knex,
    s.project.id,
    Array.from({ length: 7 }, (_, i) => ({
      environmentId: s.production.id,
      userId: i % 2 === 0 ? s.admin.id : s.editor.id,
      teamId: team(i % 2 === 0 ? 'Operations' : 'Support'),
      type: i % 3 === 0 ? ('write' as const) : ('read' as const),
      action: i % 3 === 0 ? ('update' as const) : ('index' as const),
      collectionName: i === 5 ? undefined : 'orders',
      recordIds: i % 3 === 0 ? [String(40 + i), 'x"y\\z'] : [],
      label: i === 3 ? 'updated "order" 43 — ✓' : undefined,
      inbox: i === 5 ? { name: 'Ids check' } : undefined,
      workflow: i === 6 ? { name: 'KYC', runId: '26', stepName: 'review' } : undefined,
      // Two logs share a timestamp: the cursor orders them by id.
      createdAt: new Date(T0 + Math.min(i, 5) * 60_000),
    })),
  );
  revoked = await tokenFor(hot, s.project, s.admin.id, ['activity_logs:read']);
  const row = await hot.knex('application_tokens').orderBy('id', 'desc').first('id');
  await revokeApplicationToken(hot.knex, row.id, s.project.id);
  session = signSessionToken(TEST_KEYS, {
    userId: s.admin.id,
    sso: false,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
});

afterAll(async () => {
  await hot?.close();
  await reference?.close();
});

interface Sent {
  method?: 'get' | 'head';
  path: string;
  headers?: Record<string, string>;
}

/** Headers whose values vary from one request to the next: compared by form only. */
const VARYING: Record<string, RegExp> = {
  date: /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  'request-id': /^([0-9a-f-]{36}|given-id\.1)$/,
  'x-ratelimit-remaining': /^\d+$/,
  'x-ratelimit-reset': /^\d+$/,
  ratelimit: /^"sustained";r=\d+;t=\d+$/,
  'retry-after': /^\d+$/,
};

/** What a client sees, with the varying headers checked and replaced by their name. */
async function answer(server: AdminApiServer, { method = 'get', path, headers = {} }: Sent) {
  const response = await request(server.app)[method](path).set(headers);
  const seen: Record<string, unknown> = { ...response.headers };
  for (const [name, form] of Object.entries(VARYING)) {
    if (seen[name] === undefined) continue;
    expect(`${name}: ${String(seen[name])}`).toMatch(
      new RegExp(`^${name}: ${form.source.slice(1)}`),
    );
    seen[name] = name;
  }
  return { status: response.status, headers: seen, body: response.text };
}

/** Whether the hot server's express router saw the request (it did not, when the hot route served it). */
async function answerWatched(sent: Sent) {
  const router = (hot.app as unknown as { router: { handle: (...args: unknown[]) => void } })
    .router;
  const spy = jest.spyOn(router, 'handle');
  try {
    const fast = await answer(hot, sent);
    return { fast, reachedExpress: spy.mock.calls.length > 0 };
  } finally {
    spy.mockRestore();
  }
}

const list = (project = 'Hot%20Shop', environment = 'Production') =>
  `/v1/project/${project}/environment/${environment}/activity-logs`;
const token = () => ({ Authorization: `Bearer ${s.tokens['activity_logs:read']}` });

describe('the hot activity-log list against the express pipeline', () => {
  const served: [string, () => Sent][] = [
    ['the first page', () => ({ path: list(), headers: token() })],
    ['a page of 2', () => ({ path: `${list()}?limit=2`, headers: token() })],
    ['every item', () => ({ path: `${list()}?limit=100`, headers: token() })],
    [
      'filters',
      () => ({
        path: `${list()}?userId=${s.admin.id}&action=update&type=write&createdAt.gte=2026-03-01T10:00:00Z&createdAt.lt=2026-03-02T00:00:00%2B02:00&collectionName=orders&recordId=43`,
        headers: token(),
      }),
    ],
    [
      'user email and team',
      () => ({
        path: `${list()}?userEmail=${encodeURIComponent(s.editor.email.toUpperCase())}&teamName=Support`,
        headers: token(),
      }),
    ],
    [
      'a given Request-Id and the all scope',
      () => ({
        path: list(),
        headers: { Authorization: `Bearer ${s.tokens.all}`, 'Request-Id': 'given-id.1' },
      }),
    ],
    [
      'an escaped environment name',
      () => ({ path: list('Hot%20Shop', '%50roduction'), headers: token() }),
    ],
    ['another environment', () => ({ path: list('Hot%20Shop', 'Staging'), headers: token() })],
    ['an unknown environment', () => ({ path: list('Hot%20Shop', 'Nope'), headers: token() })],
    ['another project', () => ({ path: list('Other'), headers: token() })],
    ['a case-changed project', () => ({ path: list('hot%20shop'), headers: token() })],
    ['an encoded slash in the project', () => ({ path: list('Hot%2FShop'), headers: token() })],
    ['limit 0', () => ({ path: `${list()}?limit=0`, headers: token() })],
    ['limit 101', () => ({ path: `${list()}?limit=101`, headers: token() })],
    ['limit abc', () => ({ path: `${list()}?limit=abc`, headers: token() })],
    ['a repeated parameter', () => ({ path: `${list()}?limit=1&limit=2`, headers: token() })],
    ['an unknown parameter', () => ({ path: `${list()}?sort=id`, headers: token() })],
    ['a bad date', () => ({ path: `${list()}?createdAt.gte=yesterday`, headers: token() })],
    ['an unknown action', () => ({ path: `${list()}?action=fly`, headers: token() })],
    ['a forged cursor', () => ({ path: `${list()}?cursor=WzEsMl0`, headers: token() })],
    ['an empty cursor', () => ({ path: `${list()}?cursor=`, headers: token() })],
    [
      'a token without the scope',
      () => ({ path: list(), headers: { Authorization: `Bearer ${s.tokens['notes:read']}` } }),
    ],
    [
      "another project's token",
      () => ({ path: list(), headers: { Authorization: `Bearer ${other.tokens.all}` } }),
    ],
    ['a revoked token', () => ({ path: list(), headers: { Authorization: `Bearer ${revoked}` } })],
    [
      'a body on a GET',
      () => ({ path: list(), headers: { ...token(), 'Content-Type': 'application/json' } }),
    ],
  ];

  it.each(served)('serves %s as express does', async (_name, sent) => {
    const { fast, reachedExpress } = await answerWatched(sent());
    const slow = await answer(reference, sent());
    expect(fast).toEqual(slow);
    expect(reachedExpress).toBe(false);
  });

  it('follows cursors page by page as express does', async () => {
    let path: string | null = `${list()}?limit=2`;
    let pages = 0;
    while (path !== null) {
      const { fast, reachedExpress } = await answerWatched({ path, headers: token() });
      expect(fast).toEqual(await answer(reference, { path, headers: token() }));
      expect(reachedExpress).toBe(false);
      const cursor: string | null = JSON.parse(fast.body).nextCursor;
      path = cursor === null ? null : `${list()}?limit=2&cursor=${cursor}`;
      pages += 1;
    }
    expect(pages).toBe(4);
  });

  const leftToExpress: [string, () => Sent][] = [
    ['no token', () => ({ path: list() })],
    ['another scheme', () => ({ path: list(), headers: { Authorization: 'Token abc' } })],
    ['a malformed token', () => ({ path: list(), headers: { Authorization: 'Bearer a.b.c' } })],
    ['an opaque token', () => ({ path: list(), headers: { Authorization: 'Bearer opaque' } })],
    [
      'a token of another signer',
      () => ({
        path: list(),
        headers: {
          Authorization: `Bearer ${s.tokens.all.replace(/\.[^.]+$/, '.c2lnbmF0dXJl')}`,
        },
      }),
    ],
    ['a session token', () => ({ path: list(), headers: { Authorization: `Bearer ${session}` } })],
    ['a trailing slash', () => ({ path: `${list()}/`, headers: token() })],
    ['an upper-case path', () => ({ path: list().toUpperCase(), headers: token() })],
    ['an empty project', () => ({ path: list(''), headers: token() })],
    ['an undecodable name', () => ({ path: list('%E0%A4%A'), headers: token() })],
    ['a NUL in the query', () => ({ path: `${list()}?recordId=%00`, headers: token() })],
    ['HEAD', () => ({ method: 'head' as const, path: list(), headers: token() })],
    [
      'a forwarded HTTPS request',
      () => ({ path: list(), headers: { ...token(), 'X-Forwarded-Proto': 'https' } }),
    ],
  ];

  it.each(leftToExpress)('leaves %s to express, with the same answer', async (_name, sent) => {
    const { fast, reachedExpress } = await answerWatched(sent());
    expect(fast).toEqual(await answer(reference, sent()));
    expect(reachedExpress).toBe(true);
  });

  it('leaves conditional requests to express, which answers 304', async () => {
    const first = await answer(hot, { path: list(), headers: token() });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    const sent = { path: list(), headers: { ...token(), 'If-None-Match': etag } };
    const { fast, reachedExpress } = await answerWatched(sent);
    expect(fast.status).toBe(304);
    expect(fast).toEqual(await answer(reference, sent));
    expect(reachedExpress).toBe(true);
  });

  it('sets every security header helmet sets', async () => {
    const fast = await answer(hot, { path: list(), headers: token() });
    for (const name of [
      'content-security-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'origin-agent-cluster',
      'referrer-policy',
      'x-content-type-options',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-frame-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ]) {
      expect(fast.headers[name]).toBeDefined();
    }
    expect(fast.headers['strict-transport-security']).toBeUndefined();
    expect(fast.headers['x-powered-by']).toBeUndefined();
  });
});

describe('the hot route under a rate limit', () => {
  it('refuses past the limit with the same 429 as express', async () => {
    const limited = { points: 2, durationSeconds: 60, burstPoints: 0, burstDurationSeconds: 60 };
    const fastServer = await startTestServer(db(), { rateLimit: limited });
    const slowServer = await startTestServer(db(), { rateLimit: limited, hotRoutes: false });
    try {
      // One token each: the counters are shared through the database.
      const tokens = [
        await tokenFor(fastServer, s.project, s.admin.id, ['activity_logs:read']),
        await tokenFor(fastServer, s.project, s.admin.id, ['activity_logs:read']),
      ];
      const statuses: number[][] = [[], []];
      for (let i = 0; i < 3; i += 1) {
        const [fast, slow] = await Promise.all(
          [fastServer, slowServer].map((server, index) =>
            answer(server, {
              path: `${list()}?limit=1`,
              headers: { Authorization: `Bearer ${tokens[index]}` },
            }),
          ),
        );
        statuses[0]!.push(fast!.status);
        statuses[1]!.push(slow!.status);
        // Only the seconds until the window ends may differ.
        const seconds = (text: string) => text.replace(/retry in \d+ second/, 'retry in N second');
        expect({ ...fast!, body: seconds(fast!.body) }).toEqual({
          ...slow!,
          body: seconds(slow!.body),
        });
      }
      expect(statuses).toEqual([
        [200, 200, 429],
        [200, 200, 429],
      ]);
    } finally {
      await fastServer.close();
      await slowServer.close();
    }
  });
});
