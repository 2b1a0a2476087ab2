import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  signMcpAccessToken,
  signSessionToken,
  verifySessionToken,
  type Agent,
} from '@canopy/agent-core';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  EUROPE_COUNTRIES,
  EUROPE_SCOPES,
  setUpConsoleAccess,
  startShopAgent,
  SUPPORT_EMAIL,
} from './console';
import { buildConsoleIfNeeded } from './console-build';
import { openDemoDatabase, type DemoDatabase } from './database';
import { startDemoPlatform, type DemoPlatform } from './platform';
import { seedDashboard } from './dashboard';
import { countShop, seedShop } from './seed';
import { runWalkthrough } from './walkthrough';

const check = process.argv.includes('--check');

interface ProjectDetails {
  teams: { id: number; name: string }[];
}

async function main(): Promise<void> {
  console.log('Canopy demo: the whole system on a sample shop.');
  const workDir = mkdtempSync(join(tmpdir(), 'canopy-demo-'));
  const authSecret = randomBytes(32).toString('hex');
  let database: DemoDatabase | undefined;
  let platform: DemoPlatform | undefined;
  let agent: Agent | undefined;
  let agentUrl = '';
  let session = '';
  // The support member's agent session (team Europe, role Support).
  let supportSession = '';
  let appToken = '';
  // The console's demo logins (throwaway passwords of this run's fresh platform).
  const adminPassword = randomBytes(9).toString('base64url');
  const supportPassword = randomBytes(9).toString('base64url');
  const forest = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${agentUrl}/forest${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${session}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    });
    if (!response.ok)
      throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return response;
  };
  const publicApi = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${platform!.url}/v1/project/Shop${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${appToken}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    });
    if (!response.ok)
      throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };

  // The folder holds the tokens the printed curl lines read: gone however the process ends,
  // short of SIGKILL (an exit handler runs even when a signal's default action cuts the
  // shutdown short).
  const removeWorkDir = () => rmSync(workDir, { recursive: true, force: true });
  process.once('exit', removeWorkDir);
  const shutdown = async () => {
    await agent?.stop();
    await platform?.close();
    await database?.close();
    removeWorkDir();
  };

  try {
    await runWalkthrough([
      {
        title: 'Build the Console if it is missing or older than its sources',
        run: () => buildConsoleIfNeeded(),
      },
      {
        title: 'Open the database and create the sample shop',
        run: async () => {
          database = await openDemoDatabase();
          await seedShop(database.knex);
          const counts = await countShop(database.knex);
          // The embedded database serves one connection at a time: hand it over to the agent.
          await database.knex.destroy();
          return [
            database.description,
            ...Object.entries(counts).map(
              ([table, count]) => `${table.padEnd(12)} ${count.toLocaleString('en-US')} rows`,
            ),
          ].join('\n');
        },
      },
      {
        title: 'Start the platform server (admin-api-server) and bootstrap the Shop project',
        run: async () => {
          platform = await startDemoPlatform();
          await platform.setPassword(platform.adminId, adminPassword);
          return `${platform.url}: project ${platform.project}, environment ${platform.environment}, admin ${platform.adminEmail}`;
        },
      },
      {
        title: 'Start the Canopy agent on the shop database, connected to the platform, with MCP',
        run: async () => {
          ({ agent, url: agentUrl } = await startShopAgent(platform!, {
            databaseUrl: database!.url,
            authSecret,
            schemaPath: join(workDir, '.canopy-schema.json'),
            loggerLevel: 'Warn',
            mcp: true,
          }));
          return `${agentUrl}/forest (schema uploaded to the platform)`;
        },
      },
      {
        title: 'Create a role, a team scope and the dashboard through the management API',
        run: async () => {
          const { supportId } = await setUpConsoleAccess(platform!, {
            agentUrl,
            supportPassword,
            europeScopes: EUROPE_SCOPES,
          });
          await seedDashboard(platform!);
          const project = await platform!.manage<ProjectDetails>('GET', '/v1/project/Shop');
          const operations = project.teams.find((team) => team.name === 'Operations');
          const europe = project.teams.find((team) => team.name === 'Europe');
          supportSession = signSessionToken(
            {
              id: supportId,
              email: SUPPORT_EMAIL,
              firstName: 'Grace',
              lastName: 'Support',
              team: 'Europe',
              role: 'Support',
              permissionLevel: 'user',
              renderingId: europe?.id ?? 0,
              tags: {},
            },
            authSecret,
          );
          session = signSessionToken(
            {
              id: platform!.adminId,
              email: platform!.adminEmail,
              firstName: 'Shop',
              lastName: 'Admin',
              team: 'Operations',
              role: 'Admin',
              permissionLevel: 'admin',
              renderingId: operations?.id ?? 1,
              tags: {},
            },
            authSecret,
          );
          return 'role Support (no delete, no export on orders, refunds need an approval), team Europe (customers in Europe), member support@shop.example, a dashboard with a chart of each type';
        },
      },
      {
        title: 'List orders with their computed total and customer (as the admin front end does)',
        run: async () => {
          const response = await forest(
            '/orders?timezone=Europe/Paris&page[size]=3&page[number]=1&sort=-id&fields[orders]=id,status,total,customerName',
          );
          const document = (await response.json()) as {
            data: { id: string; attributes: Record<string, unknown> }[];
          };
          return document.data
            .map(
              ({ id, attributes }) =>
                `#${id} ${attributes.status} ${attributes.total} € — ${attributes.customerName}`,
            )
            .join('\n');
        },
      },
      {
        title: 'Filter: paid orders of the Lovelace family (a flattened relation field), counted',
        run: async () => {
          const filters = JSON.stringify({
            aggregator: 'and',
            conditions: [
              { field: 'status', operator: 'equal', value: 'paid' },
              { field: 'customer@@@last_name', operator: 'equal', value: 'Lovelace' },
            ],
          });
          const response = await forest(
            `/orders/count?timezone=Europe/Paris&filters=${encodeURIComponent(filters)}`,
          );
          return `${((await response.json()) as { count: number }).count} orders`;
        },
      },
      {
        title:
          "List customers as Support (team Europe): the team's scope on a flattened jsonb key, in SQL",
        run: async () => {
          const asSupport = { headers: { authorization: `Bearer ${supportSession}` } };
          const response = await forest(
            '/customers?timezone=Europe/Paris&page[size]=100&fields[customers]=id,address@@@country',
            asSupport,
          );
          const document = (await response.json()) as {
            data: { attributes: Record<string, unknown> }[];
          };
          const countries = document.data.map(({ attributes }) =>
            String(attributes['address@@@country']),
          );
          const outside = countries.filter((country) => !EUROPE_COUNTRIES.includes(country));
          if (countries.length === 0 || outside.length > 0) {
            throw new Error(`Support saw customers outside Europe: ${outside.join(', ')}`);
          }
          const count = await forest('/customers/count?timezone=Europe/Paris', asSupport);
          const total = ((await count.json()) as { count: number }).count;
          return `${total} customers, all in ${[...new Set(countries)].sort().join(', ')}`;
        },
      },
      {
        title: 'Run the "Mark as shipped" bulk action on two paid orders',
        run: async () => {
          const filters = encodeURIComponent(
            JSON.stringify({ field: 'status', operator: 'equal', value: 'paid' }),
          );
          const list = await forest(
            `/orders?timezone=Europe/Paris&page[size]=2&filters=${filters}&fields[orders]=id`,
          );
          const ids = ((await list.json()) as { data: { id: string }[] }).data.map(({ id }) => id);
          const schemaFile = JSON.parse(
            readFileSync(join(workDir, '.canopy-schema.json'), 'utf8'),
          ) as {
            collections: { name: string; actions: { name: string; endpoint: string }[] }[];
          };
          const endpoint = schemaFile.collections
            .find(({ name }) => name === 'orders')
            ?.actions.find(({ name }) => name === 'Mark as shipped')?.endpoint;
          if (!endpoint) throw new Error('the schema file has no "Mark as shipped" action');
          const response = await fetch(`${agentUrl}${endpoint}?timezone=Europe/Paris`, {
            method: 'POST',
            headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              data: {
                type: 'custom-action-requests',
                attributes: {
                  collection_name: 'orders',
                  ids,
                  values: {},
                  all_records: false,
                  all_records_ids_excluded: [],
                },
              },
            }),
          });
          const result = (await response.json()) as { success?: string };
          if (!response.ok)
            throw new Error(`the action answered ${response.status}: ${JSON.stringify(result)}`);
          return `${result.success} (orders ${ids.join(', ')})`;
        },
      },
      {
        title: 'Render charts: delivery rate and orders per month',
        run: async () => {
          const chart = async (name: string) =>
            (
              (await (
                await forest(`/_charts/${name}?timezone=Europe/Paris`, { method: 'POST' })
              ).json()) as {
                data: { attributes: { value: unknown } };
              }
            ).data.attributes.value;
          const rate = (await chart('deliveryRate')) as number;
          const months = (await chart('ordersPerMonth')) as unknown[];
          return `delivery rate ${rate} %, ${months.length} months of orders`;
        },
      },
      {
        title: 'Export customers as CSV (streamed)',
        run: async () => {
          const response = await forest(
            `/customers.csv?timezone=Europe/Paris&fields[customers]=id,fullName,email,address@@@city&header=${encodeURIComponent('Id,Full name,Email,City')}&filename=customers`,
            { headers: { accept: 'text/csv' } },
          );
          const lines = (await response.text()).trim().split('\n');
          return [...lines.slice(0, 3), `… ${lines.length - 1} customers`].join('\n');
        },
      },
      {
        title: 'Call an MCP tool (list) as an AI client would',
        run: async () => {
          // An MCP access token as the agent's OAuth endpoints issue it after a user authorizes a
          // client: the user's session claims, the granted scopes, the client id, and the user's
          // platform credential, sealed so that only the agent can read it.
          const token = signMcpAccessToken(
            verifySessionToken(session, authSecret),
            {
              platformToken: session,
              scopes: ['mcp:read', 'mcp:write', 'mcp:action'],
              clientId: 'canopy-demo',
            },
            authSecret,
            600,
          );
          const client = new McpClient({ name: 'canopy-demo', version: '0.1.0' });
          await client.connect(
            new StreamableHTTPClientTransport(new URL(`${agentUrl}/mcp`), {
              requestInit: { headers: { authorization: `Bearer ${token}` } },
            }),
          );
          try {
            const tools = await client.listTools();
            const result = await client.callTool({
              name: 'list',
              arguments: {
                collectionName: 'products',
                fields: ['id', 'name', 'price'],
                pagination: { size: 3 },
              },
            });
            const text = (result.content as { type: string; text?: string }[])[0]?.text ?? '';
            return `${tools.tools.length} tools; list(products) → ${text.slice(0, 160)}…`;
          } finally {
            await client.close();
          }
        },
      },
      {
        title: 'Create an application token and read the activity logs through the public API',
        run: async () => {
          const created = await platform!.manage<{ token: string }>(
            'POST',
            '/v1/project/Shop/application-tokens',
            {
              name: 'demo',
              scopes: ['activity_logs:read', 'notes:read', 'notes:write'],
            },
          );
          appToken = created.token;
          // The agent sends its activity logs in batches, off the request path: wait for them.
          type Logs = { data: { action: string; collection?: { name: string } }[] };
          let logs: Logs = { data: [] };
          for (let attempt = 0; attempt < 50; attempt += 1) {
            logs = await publicApi<Logs>('/environment/Production/activity-logs?limit=100');
            if (logs.data.some((log) => log.action === 'action')) break;
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
          const byAction = new Map<string, number>();
          for (const log of logs.data) {
            const key = `${log.action}${log.collection ? ` ${log.collection.name}` : ''}`;
            byAction.set(key, (byAction.get(key) ?? 0) + 1);
          }
          if (logs.data.length === 0) throw new Error('no activity log reached the platform');
          return [...byAction].map(([key, count]) => `${count} × ${key}`).join('\n');
        },
      },
      {
        title: 'Write a note on an order and read it back',
        run: async () => {
          await publicApi('/environment/Production/notes', {
            method: 'POST',
            body: JSON.stringify({
              title: 'Customer called',
              recordId: '1',
              collectionName: 'orders',
              message: '<p>Asked to <strong>deliver on Friday</strong>.</p>',
            }),
          });
          const notes = await publicApi<{
            data: { title: string; messages: { content: string }[] }[];
          }>('/environment/Production/notes?collectionName=orders&recordId=1');
          const [note] = notes.data;
          return `"${note?.title}": ${note?.messages[0]?.content}`;
        },
      },
    ]);

    if (check) {
      console.log('\nDemo check passed.');
      return;
    }
    // The tokens stay off the terminal (and so off scroll-back and shared screens): the curl
    // lines read them from files only this user can read, removed when the demo stops.
    const appTokenFile = join(workDir, 'platform-application-token');
    const sessionFile = join(workDir, 'agent-session-token');
    writeFileSync(appTokenFile, appToken, { mode: 0o600 });
    writeFileSync(sessionFile, session, { mode: 0o600 });
    // Stable `Label: value` lines at the start of a line: the first-run CI job reads the
    // Console URL and both logins from them.
    console.log(`
Everything is running. Open the Console in a browser and sign in:

Console: ${platform!.url}/
Admin login: ${platform!.adminEmail} / ${adminPassword} (team Operations, role Admin)
Support login: ${SUPPORT_EMAIL} / ${supportPassword} (team Europe, role Support)

What to try (apps/demo/README.md walks through it):
  1. As the admin: open Orders, then an order; Edit its status and save. Select paid orders and
     run "Mark as shipped". Customers, Products and the Dashboard are in the side bar.
  2. As Support (in a private window, so both stay signed in): open a paid order and run
     "Refund order". The Support role needs an approval for it: send the request.
  3. As the admin: open Approvals, approve the request; the refund runs and the order is refunded.
  4. As Support: Approvals shows your request approved, with the admin's comment.

Agent: ${agentUrl}/forest
MCP server: ${agentUrl}/mcp
Platform API: ${platform!.url}/v1/openapi.json

  curl -H "Authorization: Bearer $(cat ${appTokenFile})" '${platform!.url}/v1/project/Shop/environment/Production/activity-logs?limit=5'
  curl -H "Authorization: Bearer $(cat ${sessionFile})" '${agentUrl}/forest/products?timezone=UTC&page%5Bsize%5D=3'

Press Ctrl-C to stop.`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    console.log('\nStopping…');
  } finally {
    await shutdown();
  }
}

main().catch((error: unknown) => {
  console.error(`\nDemo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
