import { createHash, randomBytes } from 'node:crypto';
import { CookieJar } from '@canopy/test-browser';
import { useTestDatabase } from '@canopy/test-databases';
import jwt from 'jsonwebtoken';
import { bootstrapProject, setUserPassword, signSessionToken, type AdminApiServer } from '../src';
import { verifyPlatformToken } from '../src/auth/platform-tokens';
import { issueMcpTokens, verifyMcpToken } from '../src/auth/mcp-tokens';
import { findCliAccessToken } from '../src/auth/cli-client';
import { findConsoleAccessToken } from '../src/auth/console-client';
import { resolveUserAccessToken } from '../src/auth/rendering-user';
import { followToCallback, redeemConsoleCode } from './helpers/oidc-login';
import { startTestServer, TEST_KEYS, tokenFor } from './helpers/test-server';

// Issue 30, finding 4: every platform token names its type and audience, and every platform
// verifier accepts its own tokens only.

const db = useTestDatabase('postgres');
const PASSWORD = 'ada-own-password-123';
let server: AdminApiServer;
let url: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer(db());
  url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  const shop = await bootstrapProject(server.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'ada@example.com',
  });
  await setUserPassword(server.knex, shop.userId, PASSWORD);
  const project = await server.knex('projects').where({ name: 'Shop' }).first();
  const credentials = { email: 'ada@example.com', password: PASSWORD };
  const expiresAt = new Date(Date.now() + 3_600_000);

  tokens.session = signSessionToken(TEST_KEYS, { userId: shop.userId, sso: false, expiresAt });
  tokens.application = await tokenFor(server, project, shop.userId, ['all']);
  const mcp = issueMcpTokens(TEST_KEYS, {
    userId: shop.userId,
    environmentId: shop.environmentId,
    renderingId: 1,
    clientId: 'mcp-test',
    scope: 'mcp:read',
  });
  tokens.mcpAccess = mcp.access_token;
  tokens.mcpRefresh = mcp.refresh_token;

  // The console's login, from its browser.
  const jar = new CookieJar();
  const verifier = randomBytes(32).toString('base64url');
  const consoleCallback = await followToCallback(
    url,
    jar,
    await fetch(
      `${url}/oidc/auth?${new URLSearchParams({
        client_id: 'canopy-console',
        redirect_uri: `${url}/oidc/callback`,
        response_type: 'code',
        scope: 'openid',
        state: 'console',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      })}`,
      { redirect: 'manual' },
    ),
    credentials,
  );
  const consoleTokens = await redeemConsoleCode(
    url,
    consoleCallback.searchParams.get('code')!,
    verifier,
    jar.header(),
  );
  expect(consoleTokens.status).toBe(200);
  tokens.consoleAccess = ((await consoleTokens.json()) as { access_token: string }).access_token;

  // An agent's login: its own client, registered with the env secret.
  const registered = await fetch(`${url}/oidc/reg`, {
    method: 'POST',
    headers: { 'forest-secret-key': shop.secret!, 'content-type': 'application/json' },
    body: JSON.stringify({ token_endpoint_auth_method: 'none', redirect_uris: ['x'] }),
  });
  const { client_id: agentClient } = (await registered.json()) as { client_id: string };
  const agentCallback = await followToCallback(
    url,
    jar,
    await fetch(
      `${url}/oidc/auth?${new URLSearchParams({
        client_id: agentClient,
        redirect_uri: `${url}/oidc/callback`,
        response_type: 'code',
        scope: 'openid email profile',
        state: 'agent',
      })}`,
      { redirect: 'manual', headers: { cookie: jar.header() } },
    ),
    credentials,
  );
  tokens.agentCode = agentCallback.searchParams.get('code')!;
  const agentTokens = await fetch(`${url}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: agentClient,
      code: tokens.agentCode,
      redirect_uri: `${url}/oidc/callback`,
    }).toString(),
  });
  expect(agentTokens.status).toBe(200);
  const agent = (await agentTokens.json()) as { access_token: string; id_token: string };
  tokens.agentLoginAccess = agent.access_token;
  tokens.agentIdToken = agent.id_token;
  tokens.agentClient = agentClient;
}, 30_000);

afterAll(async () => {
  await server.close();
});

const TOKEN_NAMES = [
  'session',
  'application',
  'mcpAccess',
  'mcpRefresh',
  'consoleAccess',
  'agentLoginAccess',
  'agentCode',
  'agentIdToken',
] as const;

const accepts = async (check: () => unknown): Promise<boolean> => {
  try {
    return Boolean(await check());
  } catch {
    return false;
  }
};

/** Each platform verifier, and the tokens it must accept (it refuses every other one). */
const VERIFIERS: [string, (token: string) => unknown, readonly string[]][] = [
  ['session', (token) => verifyPlatformToken(token, TEST_KEYS, 'session'), ['session']],
  ['application', (token) => verifyPlatformToken(token, TEST_KEYS, 'application'), ['application']],
  ['MCP access', (token) => verifyMcpToken(TEST_KEYS, token, 'mcp-access'), ['mcpAccess']],
  ['MCP refresh', (token) => verifyMcpToken(TEST_KEYS, token, 'mcp-refresh'), ['mcpRefresh']],
  ['console access', (token) => findConsoleAccessToken(server.knex, token), ['consoleAccess']],
  ['canopy-cloud access', (token) => findCliAccessToken(server.knex, token), []],
  [
    'user token of an agent',
    (token) => resolveUserAccessToken(server.knex, TEST_KEYS, token),
    ['mcpAccess', 'agentLoginAccess'],
  ],
];

it.each(VERIFIERS)('the %s verifier accepts its own tokens only', async (_name, verify, own) => {
  const accepted: string[] = [];
  for (const name of TOKEN_NAMES) {
    if (await accepts(() => verify(tokens[name]!))) accepted.push(name);
  }
  expect(accepted).toEqual(own);
});

it('writes the type and audience in every platform token', async () => {
  const claims = (token: string) => jwt.decode(token) as Record<string, unknown>;
  expect(claims(tokens.session!)).toMatchObject({ typ: 'session', aud: 'canopy-platform-api' });
  expect(claims(tokens.application!)).toMatchObject({
    typ: 'application',
    aud: 'canopy-platform-api',
  });
  expect(claims(tokens.mcpAccess!)).toMatchObject({
    typ: 'mcp-access',
    aud: 'canopy-platform-api',
  });
  expect(claims(tokens.mcpRefresh!)).toMatchObject({
    typ: 'mcp-refresh',
    aud: 'canopy-platform-oauth',
  });
  expect(claims(tokens.agentIdToken!)).toMatchObject({ aud: tokens.agentClient });
  const stored = async (token: string) =>
    (await server.knex('oidc_payloads').where({ model: 'AccessToken', id: token }).first('payload'))
      .payload.extra;
  expect(await stored(tokens.consoleAccess!)).toEqual({
    typ: 'console-access',
    aud: 'canopy-platform-api',
  });
  expect(await stored(tokens.agentLoginAccess!)).toEqual({
    typ: 'agent-login-access',
    aud: tokens.agentClient,
  });
});

it('refuses a token of the right type for another audience', async () => {
  const [key] = TEST_KEYS;
  const options = { algorithm: 'HS256', keyid: key!.id, issuer: 'canopy-admin-api' } as const;
  const session = jwt.sign(
    { typ: 'session', sub: '1', sso: false, aud: 'canopy-platform-oauth' },
    key!.secret,
    { ...options, expiresIn: 60 },
  );
  expect(() => verifyPlatformToken(session, TEST_KEYS, 'session')).toThrow(
    'not a user session token',
  );
  const refresh = jwt.sign(
    { typ: 'mcp-refresh', sub: '1', env: 1, aud: 'canopy-platform-api' },
    key!.secret,
    { ...options, expiresIn: 60 },
  );
  expect(verifyMcpToken(TEST_KEYS, refresh, 'mcp-refresh')).toBeUndefined();
});
