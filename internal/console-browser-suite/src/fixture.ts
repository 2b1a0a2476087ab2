/**
 * The browser suite's system: a real admin-api-server (serving the built console) and a real
 * agent on the demo shop, each in its own PostgreSQL schema, on ephemeral 127.0.0.1 ports. The
 * agent is the Canopy agent with the demo's customizations, or the reference agent from npm
 * (`@forestadmin/agent`) on the same database.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setUpConsoleAccess, startShopAgent, SUPPORT_EMAIL } from '@canopy/demo/src/console';
import { seedDashboard } from '@canopy/demo/src/dashboard';
import { startDemoPlatform, type DemoPlatform } from '@canopy/demo/src/platform';
import { seedShop } from '@canopy/demo/src/seed';
import { createTestDatabase, type TestDatabase } from '@canopy/test-databases';

export type AgentKind = 'canopy' | 'reference';

export interface User {
  email: string;
  password: string;
  team: string;
}

export interface Fixture {
  agentKind: AgentKind;
  /** The demo project's and environment's names on the platform. */
  project: string;
  environment: string;
  consoleUrl: string;
  agentUrl: string;
  admin: User;
  /** Role Support: no delete and no export on orders; team Europe. */
  support: User;
  /** A platform session token of `user`, for the console's platform calls (notes, activity…). */
  platformToken(user: User): string;
  /** An MCP platform token of `user` for the team `renderingId` (activity-log requests). */
  mcpToken(user: User, renderingId: number): Promise<string>;
  /** Saves the demo's dashboard (a chart of each type) on the environment. */
  seedDashboard(): Promise<void>;
  /** Calls the management API as the admin (to check what the console stored). */
  manage<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Runs SQL on the shop's database (the agent's data), for setting up and restoring checks. */
  shopSql<T = Record<string, unknown>>(
    sql: string,
    bindings?: readonly (string | number)[],
  ): Promise<T[]>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startAgent(
  kind: AgentKind,
  platform: DemoPlatform,
  shop: TestDatabase,
  schemaPath: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  const authSecret = randomBytes(32).toString('hex');
  if (kind === 'canopy') {
    const { agent, url } = await startShopAgent(platform, {
      databaseUrl: shop.url,
      authSecret,
      schemaPath,
      loggerLevel: 'Error',
    });
    return { url, stop: () => agent.stop() };
  }
  // The reference agent, unmodified, on the same tables.
  const reference = await import('@forestadmin/agent');
  const referenceSql = await import('@forestadmin/datasource-sql');
  const port = await freePort();
  const uri = new URL(shop.url);
  uri.search = '';
  const agent = reference
    .createAgent({
      authSecret,
      envSecret: platform.envSecret,
      forestServerUrl: platform.url,
      forestAppUrl: platform.url,
      isProduction: false,
      schemaPath,
      loggerLevel: 'Error',
      instantCacheRefresh: true,
    })
    .addDataSource(
      referenceSql.createSqlDataSource({
        uri: uri.toString(),
        schema: shop.name,
        dialect: 'postgres',
      } as Parameters<typeof referenceSql.createSqlDataSource>[0]),
    )
    .mountOnStandaloneServer(port, '127.0.0.1');
  await agent.start();
  return { url: `http://127.0.0.1:${port}`, stop: () => agent.stop() };
}

export async function startFixture(
  kind: AgentKind,
  options: {
    /** Runs on the shop database after the demo's seed, before the agent reads its tables. */
    prepareShop?(knex: TestDatabase['knex']): Promise<void>;
  } = {},
): Promise<Fixture> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const shop = await createTestDatabase('postgres');
    cleanups.push(() => shop.drop());
    await seedShop(shop.knex);
    await options.prepareShop?.(shop.knex);
    const platformDb = await createTestDatabase('postgres');
    cleanups.push(() => platformDb.drop());

    const platform = await startDemoPlatform(platformDb.url);
    cleanups.push(() => platform.close());
    const adminPassword = randomBytes(12).toString('base64url');
    const supportPassword = randomBytes(12).toString('base64url');
    await platform.setPassword(platform.adminId, adminPassword);

    const workDir = mkdtempSync(join(tmpdir(), 'canopy-console-e2e-'));
    cleanups.push(() => rmSync(workDir, { recursive: true, force: true }));
    const schemaPath = join(workDir, 'schema.json');
    const agent = await startAgent(kind, platform, shop, schemaPath);
    cleanups.push(() => agent.stop());

    const { supportId } = await setUpConsoleAccess(platform, {
      agentUrl: agent.url,
      supportPassword,
      // The reference agent of this suite declares none of the demo's actions.
      actionRights: kind === 'canopy',
    });

    return {
      agentKind: kind,
      project: platform.project,
      environment: platform.environment,
      consoleUrl: platform.url,
      agentUrl: agent.url,
      admin: { email: platform.adminEmail, password: adminPassword, team: 'Operations' },
      support: { email: SUPPORT_EMAIL, password: supportPassword, team: 'Europe' },
      platformToken: (user) =>
        platform.sessionToken(user.email === platform.adminEmail ? platform.adminId : supportId),
      mcpToken: (user, renderingId) =>
        platform.mcpToken(
          user.email === platform.adminEmail ? platform.adminId : supportId,
          renderingId,
        ),
      seedDashboard: () => seedDashboard(platform),
      manage: platform.manage,
      shopSql: async <T>(sql: string, bindings: readonly (string | number)[] = []) => {
        const answer = await shop.knex.raw(sql, bindings);
        return (answer as { rows?: T[] }).rows ?? [];
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
