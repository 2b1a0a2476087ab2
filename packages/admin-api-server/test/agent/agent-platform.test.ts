import { createSqlDataSource } from '@canopy/datasource-sql';
import { createTestDatabase, useTestDatabase, type TestDatabase } from '@canopy/test-databases';
import { bootstrapProject, type AdminApiServer } from '../../src';
import { startTestServer } from '../helpers/test-server';
import { defineAgentScenario, ORDERS_SQL, type ObservedLog } from './agent-scenario';
import { createSupportShop, managementApi } from '../helpers/management-api';

const db = useTestDatabase('postgres');
let server: AdminApiServer | undefined;
let shopDb: TestDatabase | undefined;

afterAll(async () => {
  await server?.close();
  await shopDb?.drop();
});

// The scenario of sandbox-platform.test.ts, against admin-api-server on PostgreSQL: the model
// is built through the management API, the agent serves a PostgreSQL database of its own through
// @canopy/datasource-sql, and the activity logs are read back through the public API with an
// application token.
defineAgentScenario('admin-api-server', async () => {
  shopDb = await createTestDatabase('postgres');
  await shopDb.knex.raw(ORDERS_SQL);
  server = await startTestServer(db());
  const port = await server.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  const owner = await bootstrapProject(server.knex, {
    project: 'Platform',
    environment: 'Production',
    adminEmail: 'owner@example.com',
  });
  const api = managementApi(url, owner.userId);

  const { secret, team, ada } = await createSupportShop(api);
  const { token } = await api('POST', '/v1/project/Shop/application-tokens', {
    name: 'scenario',
    scopes: ['activity_logs:read'],
  });

  return {
    url,
    envSecret: secret,
    orders: createSqlDataSource(shopDb.url),
    user: { id: ada.id, email: ada.email, team: 'Support', role: 'Support', renderingId: team.id },
    denyOrderEdits: async () => {
      await api('PATCH', '/v1/project/Shop/roles/Support', {
        rights: { collections: { orders: { editEnabled: false } } },
      });
    },
    scopeOrdersToEu: async () => {
      await api('PATCH', '/v1/project/Shop/teams/Support', {
        scopes: { orders: { field: 'region', operator: 'equal', value: 'EU' } },
      });
    },
    activityLogs: async (): Promise<ObservedLog[]> => {
      const response = await fetch(
        `${url}/v1/project/Shop/environment/Production/activity-logs?limit=100`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const { data } = (await response.json()) as {
        data: {
          action: string;
          type: string;
          collection?: { name: string };
          recordIds: string[];
          user: { id: number };
          team: { name: string };
        }[];
      };
      return data.reverse().map((log) => ({
        action: log.action,
        type: log.type,
        collectionName: log.collection?.name ?? null,
        recordIds: log.recordIds,
        userId: log.user.id,
      }));
    },
  };
});
