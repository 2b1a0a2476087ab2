import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, signSessionToken as signAgentSession, type Agent } from '@canopy/agent-core';
import { useTestDatabase } from '@canopy/test-databases';
import { bootstrapProject, type AdminApiServer } from '../../src';
import { createSupportShop, managementApi } from '../helpers/management-api';
import { startTestServer } from '../helpers/test-server';
import { eventually, inMemoryOrders } from './agent-scenario';

const db = useTestDatabase('postgres');
const AUTH_SECRET = 'revocation-auth-secret';
let server: AdminApiServer | undefined;
const agents: Agent[] = [];

afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await server?.close();
});

async function startAgent(url: string, envSecret: string): Promise<string> {
  const agent = createAgent({
    authSecret: AUTH_SECRET,
    envSecret,
    serverUrl: url,
    schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-revocation-')), '.canopy-schema.json'),
    logger: () => {},
  })
    .addDataSource(inMemoryOrders)
    .mountOnStandaloneServer(0, '127.0.0.1');
  agents.push(agent);
  await agent.start();
  return `http://127.0.0.1:${agent.standaloneServerPort}/forest`;
}

it('refuses the agent session tokens of a user who signed out, on every replica and after a restart', async () => {
  server = await startTestServer(db());
  const url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  const owner = await bootstrapProject(server.knex, {
    project: 'Platform',
    environment: 'Production',
    adminEmail: 'owner@example.com',
  });
  const { secret, team, ada } = await createSupportShop(managementApi(url, owner.userId));
  const agentToken = () =>
    signAgentSession(
      {
        id: ada.id,
        email: ada.email,
        firstName: 'Ada',
        lastName: 'Byron',
        team: 'Support',
        role: 'Support',
        permissionLevel: 'user',
        renderingId: team.id,
        tags: {},
      },
      AUTH_SECRET,
    );
  const read = (base: string, token: string) =>
    fetch(`${base}/orders/count?timezone=UTC`, { headers: { authorization: `Bearer ${token}` } });

  // Two replicas of the agent, both listening to the platform's events.
  const replicas = await Promise.all([startAgent(url, secret), startAgent(url, secret)]);
  const token = agentToken();
  for (const base of replicas) expect((await read(base, token)).status).toBe(200);

  // Ada signs out of the console: it calls the platform with her platform credential.
  const signedOut = Date.now();
  const revoke = await managementApi(url, ada.id)('POST', '/v1/me/agent-sessions/revoke');
  expect(revoke).toBeNull();

  for (const base of replicas) {
    const refused = await eventually(
      async () => {
        const response = await read(base, token);
        return response.status === 401 && ((await response.json()) as { errors: unknown[] });
      },
      5_000,
      'the replica refusing the signed-out token',
    );
    expect(refused.errors[0]).toEqual({
      name: 'UnauthorizedError',
      detail: 'Authentication Error: this session was signed out; sign in again',
      status: 401,
    });
  }
  expect(Date.now() - signedOut).toBeLessThan(5_000);

  // A replica started after the sign-out refuses it as well: it read the sign-outs at start.
  const restarted = await startAgent(url, secret);
  expect((await read(restarted, token)).status).toBe(401);

  // The owner did not sign out, and Ada's next sign-in (a later second) works again.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const next = agentToken();
  for (const base of [...replicas, restarted]) expect((await read(base, next)).status).toBe(200);
}, 60_000);
