import { createHash, randomBytes } from 'node:crypto';
import { useTestDatabase } from '@canopy/test-databases';
import {
  addProjectMember,
  bootstrapProject,
  createUser,
  setUserPassword,
  type AdminApiServer,
} from '../src';
import { startTestServer } from './helpers/test-server';

// Issue 30, finding 3: the MCP consent page says who asks, where the browser goes and what is
// granted; names cannot pass for the Console; mcp:admin only for what an admin allows; scopes
// narrow and never widen; the page lets the browser on to a client of another origin; browser
// clients can register (CORS).

const db = useTestDatabase('postgres');
const CALLBACK = 'http://127.0.0.1:9/callback';
const ADMIN_PASSWORD = 'ada-own-password-123';
const USER_PASSWORD = 'uma-own-password-123';
let server: AdminApiServer;
let url: string;
let secret: string;
let environmentId: number;

beforeAll(async () => {
  server = await startTestServer(db());
  url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  const shop = await bootstrapProject(server.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'ada@example.com',
  });
  secret = shop.secret!;
  environmentId = shop.environmentId;
  await setUserPassword(server.knex, shop.userId, ADMIN_PASSWORD);
  const { project_id: projectId } = await server
    .knex('environments')
    .where({ id: environmentId })
    .first('project_id');
  const uma = await createUser(server.knex, { email: 'uma@example.com', username: 'Uma User' });
  await addProjectMember(server.knex, {
    projectId,
    userId: uma.id,
    permissionLevel: 'user',
    teamNames: ['Operations'],
  });
  await setUserPassword(server.knex, uma.id, USER_PASSWORD);
});

afterAll(async () => {
  await server.close();
});

beforeEach(async () => {
  await server.knex('login_limits').delete();
});

const register = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': randomBytes(4).join('.'),
      ...headers,
    },
    body: JSON.stringify({ redirect_uris: [CALLBACK], ...body }),
  });

async function clientId(body: Record<string, unknown> = {}): Promise<string> {
  const registered = await register(body);
  expect(registered.status).toBe(201);
  return ((await registered.json()) as { client_id: string }).client_id;
}

const verifier = randomBytes(32).toString('base64url');
const authorizeFields = (client: string, scope?: string) => ({
  client_id: client,
  redirect_uri: CALLBACK,
  code_challenge: createHash('sha256').update(verifier).digest('base64url'),
  code_challenge_method: 'S256',
  response_type: 'code',
  state: 'st',
  environmentId: String(environmentId),
  ...(scope === undefined ? {} : { scope }),
});

/** Signs in on the consent form; the granted scope, read from the token the code gives. */
async function grantedScope(
  fields: Record<string, string>,
  email: string,
  password: string,
): Promise<string> {
  const signedIn = await fetch(`${url}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, email, password }).toString(),
  });
  expect(signedIn.status).toBe(302);
  const code = new URL(signedIn.headers.get('location')!).searchParams.get('code')!;
  const exchanged = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'forest-secret-key': secret },
    body: JSON.stringify({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: CALLBACK,
      client_id: fields.client_id,
    }),
  });
  expect(exchanged.status).toBe(200);
  return ((await exchanged.json()) as { scope: string }).scope;
}

it('refuses client names that pass for the Console or any Canopy client', async () => {
  for (const name of [
    'Canopy Console',
    'canopy-cloud',
    'C a n o p y',
    'ＣＡＮＯＰＹ',
    'Cänopy admin',
  ]) {
    const refused = await register({ client_name: name });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client_metadata' });
  }
  expect((await register({ client_name: 'Claude Desktop' })).status).toBe(201);
});

it('shows the client’s redirect host, its scopes and that it registered itself', async () => {
  const client = await clientId({ client_name: 'Claude Desktop', scope: 'mcp:read mcp:admin' });
  const page = await fetch(
    `${url}/oauth/authorize?${new URLSearchParams(authorizeFields(client, 'mcp:read mcp:write mcp:admin'))}`,
  );
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('127.0.0.1:9');
  expect(html).toMatch(/registered by[\s\S]*itself[\s\S]*unverified/i);
  expect(html).toContain('(mcp:read)');
  expect(html).toContain('(mcp:admin');
  // Asked for, but not registered for: not offered.
  expect(html).not.toContain('(mcp:write)');
  expect(html).toContain('project Shop, environment Production');
  // The form may lead the browser on to the client's origin.
  expect(page.headers.get('content-security-policy')).toMatch(
    /form-action 'self' http:\/\/127\.0\.0\.1:9(;|$)/,
  );
});

it('grants mcp:admin only when an admin authorizes a client that registered for it', async () => {
  const asking = await clientId({ scope: 'mcp:read mcp:write mcp:action mcp:admin' });
  const fields = authorizeFields(asking, 'mcp:read mcp:admin');
  expect(await grantedScope(fields, 'ada@example.com', ADMIN_PASSWORD)).toBe('mcp:read mcp:admin');
  expect(await grantedScope(fields, 'uma@example.com', USER_PASSWORD)).toBe('mcp:read');

  // A client registered without it (the default: read, write, action) never gets it.
  const plain = await clientId();
  const answer = await fetch(
    `${url}/oauth/authorize?${new URLSearchParams(authorizeFields(plain, 'mcp:admin'))}`,
  );
  expect(answer.status).toBe(400);
  expect(await answer.json()).toMatchObject({ error: 'invalid_scope' });
  expect(
    await grantedScope(
      authorizeFields(plain, 'mcp:read mcp:admin'),
      'ada@example.com',
      ADMIN_PASSWORD,
    ),
  ).toBe('mcp:read');
  // Asking nothing gives the default, within what the client registered for.
  expect(await grantedScope(authorizeFields(plain), 'ada@example.com', ADMIN_PASSWORD)).toBe(
    'mcp:read mcp:write mcp:action',
  );
});

it('lets browser clients of any origin register (CORS, preflight included)', async () => {
  const preflight = await fetch(`${url}/oauth/register`, {
    method: 'OPTIONS',
    headers: {
      origin: 'http://127.0.0.1:5173',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
  const registered = await register({ client_name: 'web client' }, { origin: 'http://x.test' });
  expect(registered.status).toBe(201);
  expect(registered.headers.get('access-control-allow-origin')).toBe('*');
});
