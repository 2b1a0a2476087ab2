import { useTestDatabase } from '@canopy/test-databases';
import { bootstrapProject, signSessionToken, type AdminApiServer } from '../src';
import { serverSentEvents as events } from './helpers/event-stream';
import { startTestServer, TEST_KEYS } from './helpers/test-server';

const db = useTestDatabase('postgres');
const servers: AdminApiServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

it('tells agents connected to another server process about a change on NOTIFY, not the 5 s poll', async () => {
  // Two servers with their own pools on one database, like two processes behind a load balancer.
  const [first, second] = await Promise.all([startTestServer(db()), startTestServer(db())]);
  servers.push(first!, second!);
  const [firstPort, secondPort] = await Promise.all([
    first!.listen(0, '127.0.0.1'),
    second!.listen(0, '127.0.0.1'),
  ]);
  const { secret, userId } = await bootstrapProject(first!.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'ada@example.com',
  });
  const controller = new AbortController();
  const stream = await fetch(`http://127.0.0.1:${firstPort}/liana/v4/subscribe-to-events`, {
    headers: { 'forest-secret-key': secret!, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(stream.status).toBe(200);
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const received = events(stream.body!);
  expect((await received.next()).value).toEqual({ event: 'heartbeat', data: '{}' });

  const session = signSessionToken(TEST_KEYS, {
    userId,
    sso: false,
    expiresAt: new Date(Date.now() + 60_000),
  });
  const send = (method: string, path: string, body: object) =>
    fetch(`http://127.0.0.1:${secondPort}/v1/project/Shop/teams${path}`, {
      method,
      headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  // The first server reads the events on NOTIFY, or else every 5 s. The second change is made as
  // soon as the first one arrived: had a poll delivered it, the next poll would be about 5 s
  // away. Both within 2 s therefore means NOTIFY, with room for a loaded machine (tens of
  // milliseconds when idle).
  for (const [name, renamed] of [
    ['Support', 'Helpdesk'],
    ['Billing', 'Accounts'],
  ] as const) {
    const team = (await (await send('POST', '', { name })).json()) as { id: number };
    // Timed from the rename that sends the event, not from the team's creation before it.
    const changedAt = Date.now();
    expect((await send('PATCH', `/${name}`, { name: renamed })).status).toBe(200);
    let next = (await received.next()).value;
    while (next?.event === 'heartbeat') next = (await received.next()).value;
    expect(next).toEqual({
      event: 'refresh-renderings',
      data: JSON.stringify({ renderingIds: [team.id] }),
    });
    expect(Date.now() - changedAt).toBeLessThan(2_000);
  }
  controller.abort();
});

it('answers a wrong env secret with a 401, never the 404 agents take for a wrong environment', async () => {
  const server = await startTestServer(db());
  servers.push(server);
  const port = await server.listen(0, '127.0.0.1');
  const answer = await fetch(`http://127.0.0.1:${port}/liana/v4/subscribe-to-events`, {
    headers: { 'forest-secret-key': 'a'.repeat(64) },
  });
  expect(answer.status).toBe(401);
});
