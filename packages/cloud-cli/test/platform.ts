// The real Canopy platform (@canopy/admin-api-server) for the end-to-end test: a server on a
// PostgreSQL test schema with project "Shop", environment "Production" and a developer who may
// log in, plus what a developer does in the browser to approve canopy-cloud's device login
// (verification page, code, approval, login form), driven over HTTP.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  addProjectMember,
  bootstrapProject,
  createAdminApiServer,
  createUser,
  setUserPassword,
  type AdminApiServer,
} from '@canopy/admin-api-server';
import type { TestDatabase } from '@canopy/test-databases';
// The same browser the platform's own tests use to walk its pages.
import { browser, readForm } from '@canopy/test-browser';

/** The developer who logs in (a member of project Shop). */
export const DEVELOPER = { email: 'dev@example.com', password: 'correct horse battery' };

export interface Platform {
  /** Where canopy-cloud reaches the server. */
  readonly url: string;
  readonly server: AdminApiServer;
  /** Requests received, as `METHOD path` (for asserting what the CLI did). */
  readonly requests: string[];
  /** The env secret of Shop / Production. */
  readonly envSecret: string;
  readonly environmentId: number;
  /** Approves (signing in as the developer) or denies the device login showing `userCode`. */
  decide(userCode: string, approve: boolean): Promise<void>;
  /** A new device login of the developer, run over HTTP: its access and refresh tokens. */
  logIn(): Promise<{ accessToken: string; refreshToken: string }>;
  /** Revokes a login by its refresh token (RFC 7009), as `canopy-cloud` or an admin would. */
  revoke(refreshToken: string): Promise<void>;
  /** `GET /liana/environment` with the env secret and this access token: the status. */
  lookUpStatus(accessToken: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts the admin API server on `db`, seeds it (unless `options.seeded` says what an earlier
 * server on the same schema created), and puts a request counter in front of it.
 * `accessTokenSeconds` is the server's OIDC access-token lifetime.
 */
export async function startPlatform(
  db: TestDatabase,
  options: { accessTokenSeconds?: number; seeded?: Seeded } = {},
): Promise<Platform> {
  const requests: string[] = [];
  const counter: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push(`${request.method} ${new URL(request.url ?? '/', 'http://x').pathname}`);
    server.app(request, response);
  });
  await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
  // The counter's URL is the server's public URL: its logins are served there only.
  const server = await createAdminApiServer({
    publicUrl: url,
    database: { kind: 'url', url: db.url, poolSize: 4 },
    port: 0,
    host: '127.0.0.1',
    signingKeys: [{ id: 'e2e', secret: 'an-end-to-end-test-secret-long-enough-0123456789' }],
    rateLimit: { points: 100_000, durationSeconds: 60, burstPoints: 0, burstDurationSeconds: 60 },
    defaultTokenLifetimeDays: 30,
    logLevel: 'silent',
    trustProxy: false,
    oidcAccessTokenTtlSeconds: options.accessTokenSeconds ?? 3600,
    oidcDevicePollIntervalSeconds: 1,
  });
  // listen() also starts the server-sent events the agent subscribes to.
  await server.listen(0, '127.0.0.1');
  const seeded = options.seeded ?? (await seed(server));
  const secret = seeded.envSecret;

  const form = async (target: string, fields: Record<string, string>) => {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const platform: Platform = {
    url,
    server,
    requests,
    envSecret: secret,
    environmentId: seeded.environmentId,
    decide: (userCode, approve) => decideInBrowser(url, userCode, approve),
    async logIn() {
      const started = await form(`${url}/oidc/device/auth`, {
        client_id: 'canopy-cloud',
        scope: 'openid offline_access',
      });
      if (started.status !== 200) throw new Error(`device authorization: ${started.status}`);
      await decideInBrowser(url, String(started.body.user_code), true);
      const tokens = await form(`${url}/oidc/token`, {
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: String(started.body.device_code),
        client_id: 'canopy-cloud',
      });
      if (tokens.status !== 200) throw new Error(`token: ${JSON.stringify(tokens.body)}`);
      return {
        accessToken: String(tokens.body.access_token),
        refreshToken: String(tokens.body.refresh_token),
      };
    },
    async revoke(refreshToken) {
      // RFC 7009 §2.2: 200 with an empty body.
      const answer = await fetch(`${url}/oidc/token/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token: refreshToken,
          token_type_hint: 'refresh_token',
          client_id: 'canopy-cloud',
        }).toString(),
      });
      if (answer.status !== 200)
        throw new Error(`revocation: ${answer.status} ${await answer.text()}`);
    },
    async lookUpStatus(accessToken) {
      const response = await fetch(`${url}/liana/environment`, {
        headers: { 'forest-secret-key': secret, authorization: `Bearer ${accessToken}` },
      });
      await response.arrayBuffer();
      return response.status;
    },
    async close() {
      counter.closeAllConnections();
      await new Promise((resolve) => counter.close(resolve));
      await server.close();
    },
  };
  return platform;
}

/** What {@link seed} created: a second server on the same schema reuses it. */
export interface Seeded {
  envSecret: string;
  environmentId: number;
}

/** Project Shop (with its admin), environment Production and the developer, a member. */
async function seed(server: AdminApiServer): Promise<Seeded> {
  const knex = server.knex;
  const shop = await bootstrapProject(knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'owner@example.com',
  });
  const developer = await createUser(knex, { email: DEVELOPER.email, username: 'Dev' });
  await addProjectMember(knex, {
    projectId: shop.project.id,
    userId: developer.id,
    permissionLevel: 'developer',
  });
  await setUserPassword(knex, developer.id, DEVELOPER.password);
  return { envSecret: shop.secret!, environmentId: shop.environmentId };
}

/**
 * What the developer does in the browser: opens the verification page, types the code, then
 * denies, or approves and signs in on the login form. Throws when a page is not as expected.
 */
async function decideInBrowser(base: string, userCode: string, approve: boolean): Promise<void> {
  const page = browser(base);
  const call = (target: string, form?: Record<string, string>) =>
    form ? page.post(target, form) : page.get(target);
  const input = readForm((await call(`${base}/oidc/device`)).html);
  const confirmPage = await call(input.action, { ...input.fields, user_code: userCode });
  if (!confirmPage.html.includes(userCode)) {
    throw new Error(`The verification page refused ${userCode}: ${confirmPage.html}`);
  }
  const confirm = readForm(confirmPage.html);
  if (!approve) {
    const denied = await call(confirm.action, { ...confirm.fields, abort: 'yes' });
    if (!denied.html.includes('denied')) throw new Error(`Denial not confirmed: ${denied.html}`);
    return;
  }
  const approved = await call(confirm.action, { ...confirm.fields, confirm: 'yes' });
  const loginUrl = new URL(approved.location ?? '', base).toString();
  await call(loginUrl);
  const signedIn = await call(`${loginUrl}/login`, DEVELOPER);
  if (signedIn.status !== 303 || !signedIn.location) {
    throw new Error(`The login form refused the developer: ${signedIn.status} ${signedIn.html}`);
  }
  const success = await call(signedIn.location);
  if (!success.html.includes('canopy-cloud is logged in')) {
    throw new Error(`No success page: ${success.html}`);
  }
}
