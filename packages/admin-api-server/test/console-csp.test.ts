import { setTimeout as sleep } from 'node:timers/promises';
import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { signSessionToken, type AdminApiServer } from '../src';
import { AGENT_ORIGINS_TTL_MS, agentOriginsSource } from '../src/console/agent-origins';
import { seed, startTestServer, TEST_KEYS, type Seed } from './helpers/test-server';

/** The console's `connect-src` names the agents this platform holds, and no other host. */
const db = useTestDatabase('postgres');
let server: AdminApiServer;
let s: Seed;

beforeAll(async () => {
  server = await startTestServer(db());
  s = await seed(server);
});
afterAll(() => server.close());

async function connectSrc(): Promise<string[]> {
  const res = await request(server.app).get('/Shop/Production').set('accept', 'text/html');
  const directive = String(res.headers['content-security-policy'])
    .split('; ')
    .find((part) => part.startsWith('connect-src '));
  return directive!.split(' ').slice(1);
}

it("names a configured agent's origin and follows a changed apiEndpoint, never any host", async () => {
  const admin = signSessionToken(TEST_KEYS, {
    userId: s.admin.id,
    sso: false,
    expiresAt: new Date(Date.now() + 600_000),
  });
  const patch = (apiEndpoint: string) =>
    request(server.app)
      .patch(`/v1/project/${s.project.name}/environments/Production`)
      .set('authorization', `Bearer ${admin}`)
      .send({ apiEndpoint })
      .expect(200);
  await patch('https://agent.shop.test:8443/forest-agent');
  await sleep(AGENT_ORIGINS_TTL_MS + 100);
  const before = await connectSrc();
  expect(before).toContain('https://agent.shop.test:8443');
  expect(before).toContain("'self'");
  for (const any of ['http:', 'https:', '*', 'https://evil.example']) {
    expect(before).not.toContain(any);
  }

  await patch('http://127.0.0.1:4010');
  await sleep(AGENT_ORIGINS_TTL_MS + 100);
  const after = await connectSrc();
  expect(after).toContain('http://127.0.0.1:4010');
  expect(after).not.toContain('https://agent.shop.test:8443');
});

it('reads the origins once per delay, and keeps the last ones when the database fails', async () => {
  const origins = agentOriginsSource(server.knex, 60_000);
  const first = await origins();
  expect(first).toContain('http://127.0.0.1:4010');
  await server
    .knex('environments')
    .where({ id: s.staging.id })
    .update({ api_endpoint: 'https://staging.shop.test' });
  expect(await origins()).toEqual(first);
  let down = false;
  const flaky = ((table: string) => {
    if (down) throw new Error('database down');
    return server.knex(table);
  }) as unknown as typeof server.knex;
  const everyTime = agentOriginsSource(flaky, 0);
  const known = await everyTime();
  expect(known).toEqual(
    expect.arrayContaining(['http://127.0.0.1:4010', 'https://staging.shop.test']),
  );
  down = true;
  expect(await everyTime()).toEqual(known);
});
