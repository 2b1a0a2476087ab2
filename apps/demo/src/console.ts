import { createAgent, type Agent } from '@canopy/agent-core';
import { createSqlDataSource } from '@canopy/datasource-sql';
import { customizeShop } from './agent';
import type { DemoPlatform } from './platform';

/** The support member the demo and the console's browser suite sign in with. */
export const SUPPORT_EMAIL = 'support@shop.example';

/** The role the support member holds: no delete and no export on orders. */
export const SUPPORT_RIGHTS = {
  collections: { orders: { deleteEnabled: false, exportEnabled: false } },
  // Support may ask for a refund; an Admin (or any role that may approve it) approves it.
  actions: { orders: { 'Refund order': { approvalRequired: true, userApprovalEnabled: false } } },
};

/** Countries of the team Europe's customers. */
export const EUROPE_COUNTRIES = ['FR', 'DE', 'ES', 'PT', 'IT', 'NL', 'IE'];

/**
 * The team Europe's scope: customers whose address (a jsonb column flattened by
 * `flattenJsonColumn`) is in Europe; the database filters on the jsonb key.
 */
export const EUROPE_SCOPES = {
  customers: { field: 'address@@@country', operator: 'in', value: EUROPE_COUNTRIES },
};

/**
 * Makes the demo environment usable from the console, through the management API only: the
 * environment's API endpoint (the agent's URL, which the console reads from `/v1/me`), the role
 * Support, the team Europe (with `europeScopes`, its row-level scopes, if given) and the member
 * support@shop.example with `supportPassword`. Shared by `pnpm demo` and the browser suite.
 * `actionRights: false` leaves out the rights on the demo's actions, for an agent that does not
 * declare them (the reference agent of the browser suite): the platform refuses rights on actions
 * the environment's schema does not have.
 */
export async function setUpConsoleAccess(
  platform: DemoPlatform,
  input: {
    agentUrl: string;
    supportPassword: string;
    europeScopes?: Record<string, unknown>;
    actionRights?: boolean;
  },
): Promise<{ supportId: number }> {
  await platform.manage(
    'PATCH',
    `/v1/project/${platform.project}/environments/${platform.environment}`,
    { apiEndpoint: input.agentUrl },
  );
  await platform.manage('POST', `/v1/project/${platform.project}/roles`, {
    name: 'Support',
    rights:
      input.actionRights === false ? { collections: SUPPORT_RIGHTS.collections } : SUPPORT_RIGHTS,
  });
  await platform.manage('POST', `/v1/project/${platform.project}/teams`, {
    name: 'Europe',
    ...(input.europeScopes ? { scopes: input.europeScopes } : {}),
  });
  const support = await platform.manage<{ id: number }>(
    'POST',
    `/v1/project/${platform.project}/members`,
    {
      email: SUPPORT_EMAIL,
      firstName: 'Grace',
      lastName: 'Support',
      permissionLevel: 'user',
      roleName: 'Support',
      teamNames: ['Europe'],
    },
  );
  await platform.setPassword(support.id, input.supportPassword);
  return { supportId: support.id };
}

/**
 * Starts the Canopy agent with the demo's customizations on the shop database, connected to the
 * platform, on an ephemeral 127.0.0.1 port (with the MCP server when `mcp`).
 */
export async function startShopAgent(
  platform: DemoPlatform,
  input: {
    databaseUrl: string;
    authSecret: string;
    schemaPath: string;
    loggerLevel?: 'Error' | 'Warn' | 'Info' | 'Debug';
    mcp?: boolean;
  },
): Promise<{ agent: Agent; url: string }> {
  let agent = customizeShop(
    createAgent({
      authSecret: input.authSecret,
      envSecret: platform.envSecret,
      serverUrl: platform.url,
      isProduction: false,
      schemaPath: input.schemaPath,
      loggerLevel: input.loggerLevel ?? 'Warn',
      // Record history (the console's History tab): a table in the shop database, each row
      // written in the transaction of its change; customers' email addresses are masked.
      auditTrail: { table: 'canopy_history', redact: ['customers.email'] },
    }).addDataSource(createSqlDataSource(input.databaseUrl)),
  );
  if (input.mcp) agent = agent.mountAiMcpServer();
  agent = agent.mountOnStandaloneServer(0, '127.0.0.1');
  await agent.start();
  return { agent, url: `http://127.0.0.1:${agent.standaloneServerPort}` };
}
