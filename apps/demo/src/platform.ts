import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bootstrapProject,
  setUserPassword,
  createAdminApiServer,
  loadConfig,
  signSessionToken,
  issueMcpTokens,
  type AdminApiServer,
} from '@canopy/admin-api-server';
import { WAREHOUSE_WEBHOOK } from './agent/orders';

/** The platform server of the demo, running in this process, and its demo project. */
export interface DemoPlatform {
  url: string;
  project: string;
  environment: string;
  envSecret: string;
  adminEmail: string;
  adminId: number;
  /** Sets the password a member signs in with (the store helper the CLI uses). */
  setPassword(userId: number, password: string): Promise<void>;
  /** A platform session token of a member (what the console's platform calls may carry). */
  sessionToken(userId: number): string;
  /**
   * An MCP platform token of a member in the demo environment, for the team `renderingId` (what an
   * agent's MCP server sends with the activity logs it opens and closes).
   */
  mcpToken(userId: number, renderingId: number): Promise<string>;
  /** Calls the management and public API as the admin (session token). */
  manage<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

const PROJECT = 'Shop';
const ENVIRONMENT = 'Production';
const ADMIN_EMAIL = 'admin@shop.example';

/**
 * Starts admin-api-server in-process: on its embedded PostgreSQL (a fresh data directory), or in
 * the schema `canopy_demo_platform` of `DATABASE_URL` (or the `?schema=` the URL names). Creates
 * the demo project, its production environment and the admin user with the server's own
 * bootstrap. The console at `/` lists what `/v1/me` tells each signed-in user.
 */
export async function startDemoPlatform(
  databaseUrl = process.env.DATABASE_URL,
): Promise<DemoPlatform> {
  const dataDir = databaseUrl ? undefined : mkdtempSync(join(tmpdir(), 'canopy-demo-platform-'));
  let platformUrl: string | undefined;
  if (databaseUrl) {
    const url = new URL(databaseUrl);
    if (!url.searchParams.has('schema')) url.searchParams.set('schema', 'canopy_demo_platform');
    platformUrl = url.toString();
  }
  const config = {
    ...loadConfig({
      ...(platformUrl ? { DATABASE_URL: platformUrl } : { CANOPY_DATA_DIR: dataDir }),
      // A signing key of the demo's own: tokens it signs are worthless outside this run.
      CANOPY_TOKEN_SIGNING_KEYS: `demo:${randomBytes(32).toString('hex')}`,
      LOG_LEVEL: 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
    }),
    // The Console's CSP names the agents' origins; the warehouse's webhook, which the browser
    // calls for "Notify warehouse", is allowed the way an operator would (CANOPY_CONSOLE_CONNECT_SRC).
    console: { enabled: true, connectOrigins: [new URL(WAREHOUSE_WEBHOOK).origin] },
  };
  const server: AdminApiServer = await createAdminApiServer(config);
  if (platformUrl) {
    // The demo starts from an empty platform on every run.
    await server.knex.raw('TRUNCATE projects, users RESTART IDENTITY CASCADE');
  }
  const port = await server.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;

  const bootstrap = await bootstrapProject(server.knex, {
    project: PROJECT,
    environment: ENVIRONMENT,
    adminEmail: ADMIN_EMAIL,
  });
  if (!bootstrap.secret)
    throw new Error('The demo environment existed already: its secret is unknown.');
  // Signed for each call: setting a password revokes the sessions issued before it.
  const session = () =>
    signSessionToken(config.signingKeys, {
      userId: bootstrap.userId,
      sso: false,
      expiresAt: new Date(Date.now() + 12 * 3_600_000),
    });

  return {
    url,
    project: PROJECT,
    environment: ENVIRONMENT,
    envSecret: bootstrap.secret,
    adminEmail: ADMIN_EMAIL,
    adminId: bootstrap.userId,
    setPassword: (userId, password) => setUserPassword(server.knex, userId, password),
    sessionToken: (userId) =>
      signSessionToken(config.signingKeys, {
        userId,
        sso: false,
        expiresAt: new Date(Date.now() + 12 * 3_600_000),
      }),
    async mcpToken(userId, renderingId) {
      return issueMcpTokens(config.signingKeys, {
        userId,
        environmentId: bootstrap.environmentId,
        renderingId,
        clientId: 'canopy-demo',
        scope: 'mcp:read mcp:write mcp:action',
      }).access_token;
    },
    async manage<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${session()}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
    async close() {
      await server.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
