import {
  createServerSandbox,
  TEST_RENDERING_ID,
  TEST_ROLE,
  TEST_TEAM,
  TEST_USER,
  type ServerSandbox,
} from '@canopy/testing';
import { defineAgentScenario } from './agent-scenario';

const ENV_SECRET = '5'.repeat(64);
let sandbox: ServerSandbox | undefined;

afterAll(async () => {
  await sandbox?.close();
});

// The same scenario as agent-platform.test.ts, against the in-memory sandbox of @canopy/testing:
// both platforms must agree.
defineAgentScenario('the @canopy/testing sandbox', async () => {
  const started = await createServerSandbox(0, { heartbeatMs: 1_000 });
  sandbox = started;
  return {
    url: started.url,
    envSecret: ENV_SECRET,
    user: {
      id: TEST_USER.id,
      email: TEST_USER.email,
      team: TEST_TEAM.name,
      role: TEST_ROLE.name,
      renderingId: TEST_RENDERING_ID,
    },
    denyOrderEdits: async () =>
      started.setRoles([{ ...TEST_ROLE, collections: { orders: { editEnabled: false } } }]),
    scopeOrdersToEu: async () =>
      started.setScope('orders', { field: 'region', operator: 'equal', value: 'EU' }),
    activityLogs: async () => started.activityLogs(ENV_SECRET),
  };
});
