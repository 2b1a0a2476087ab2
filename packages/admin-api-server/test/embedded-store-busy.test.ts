import { createTestDatabase, type TestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { signSessionToken, type AdminApiServer } from '../src';
import { EMBEDDED_ACQUIRE_TIMEOUT_MS } from '../src/database/open-database';
import { startTestServer, TEST_KEYS } from './helpers/test-server';

// The embedded store has one connection. While something holds it longer than the bounded wait,
// a request answers 503 saying the store is busy, in the error shape of its route, instead of
// hanging for knex's default minute and ending in "Internal error".

let db: TestDatabase;
let server: AdminApiServer;

beforeAll(async () => {
  db = await createTestDatabase('embedded-postgres');
  server = await startTestServer(db);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await db?.drop();
}, 60_000);

it('answers 503 "embedded store is busy" once the wait for its one connection runs out', async () => {
  const session = signSessionToken(TEST_KEYS, {
    userId: 1,
    sso: false,
    expiresAt: new Date(Date.now() + 60_000),
  });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const holding = server.knex.transaction(async (trx) => {
    await trx.raw('SELECT 1');
    await held;
  });
  try {
    const started = Date.now();
    const [publicApi, agentProtocol] = await Promise.all([
      request(server.app).get('/v1/me/workspaces').set('authorization', `Bearer ${session}`),
      request(server.app)
        .get('/api/action-approvals')
        .set('authorization', `Bearer ${session}`)
        .set('forest-environment-id', '1'),
    ]);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(EMBEDDED_ACQUIRE_TIMEOUT_MS - 100);
    expect(waited).toBeLessThan(EMBEDDED_ACQUIRE_TIMEOUT_MS + 5_000);
    expect(publicApi.status).toBe(503);
    expect(publicApi.headers['retry-after']).toBe('1');
    expect(publicApi.body).toEqual({
      code: 'service_unavailable',
      message: expect.stringMatching(/^The embedded store is busy/),
    });
    expect(agentProtocol.status).toBe(503);
    expect(agentProtocol.body.errors[0].detail).toMatch(/^The embedded store is busy/);
  } finally {
    release();
    await holding;
  }
  // Once the connection is free again, the same calls are served.
  const served = await request(server.app)
    .get('/v1/me/workspaces')
    .set('authorization', `Bearer ${session}`);
  expect(served.status).not.toBe(503);
}, 30_000);
