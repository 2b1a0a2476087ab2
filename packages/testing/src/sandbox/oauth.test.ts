import { createHash } from 'node:crypto';
import jwt from 'jsonwebtoken';

import { createServerSandbox, type ServerSandbox } from './create-server-sandbox';

const SECRET = 'a'.repeat(64);
const REDIRECT = 'https://client.example/cb';
const VERIFIER = 'v'.repeat(50);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

let sandbox: ServerSandbox;

beforeEach(async () => {
  sandbox = await createServerSandbox(0, { heartbeatMs: 50 });
});
afterEach(async () => {
  await sandbox.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (response: Response): Promise<any> => response.json();

const post = (path: string, body: unknown, secret: string | null = SECRET) =>
  fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(secret ? { 'forest-secret-key': secret } : {}),
    },
    body: JSON.stringify(body),
  });

async function register(): Promise<string> {
  const response = await post('/oauth/register', { redirect_uris: [REDIRECT] }, null);
  expect(response.status).toBe(201);
  return (await json(response)).client_id;
}

async function authorize(clientId: string, scope = 'mcp:read+mcp:write'): Promise<string> {
  const url = new URL(`${sandbox.url}/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    state: 's1',
    scope,
  }).toString();
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') as string);
  expect(location.searchParams.get('state')).toBe('s1');
  return location.searchParams.get('code') as string;
}

describe('the sandbox as the MCP authorization server', () => {
  it('registers clients and looks them up; unknown ones are 404', async () => {
    const clientId = await register();
    const found = await json(await fetch(`${sandbox.url}/oauth/register/${clientId}`));
    expect(found).toMatchObject({ client_id: clientId, redirect_uris: [REDIRECT] });
    expect((await fetch(`${sandbox.url}/oauth/register/nobody`)).status).toBe(404);
    const bad = await post('/oauth/register', { redirect_uris: ['not a url'] }, null);
    expect(await json(bad)).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('exchanges a code once with the right PKCE verifier, for JWTs carrying the rendering', async () => {
    const clientId = await register();
    const code = await authorize(clientId);
    const exchange = (verifier: string, codeToUse = code) =>
      post('/oauth/token', {
        grant_type: 'authorization_code',
        code: codeToUse,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
      });
    const wrong = await exchange('w'.repeat(50));
    expect(await json(wrong)).toMatchObject({ error: 'invalid_grant' });
    const second = await authorize(clientId);
    const tokens = await json(await exchange(VERIFIER, second));
    const access = jwt.decode(tokens.access_token) as Record<string, unknown>;
    expect(access).toMatchObject({ scope: 'mcp:read mcp:write', meta: { renderingId: 1 } });
    expect(typeof access.exp).toBe('number');
    expect(typeof (jwt.decode(tokens.refresh_token) as { exp?: unknown }).exp).toBe('number');
    expect(await json(await exchange(VERIFIER, second))).toMatchObject({ error: 'invalid_grant' });

    const refreshed = await json(
      await post('/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      }),
    );
    expect(typeof refreshed.access_token).toBe('string');
    const foreign = await post('/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: 'someone-else',
    });
    expect(await json(foreign)).toMatchObject({ error: 'invalid_grant' });
  });

  it('answers the user info of a platform token, and 403 on another rendering', async () => {
    await sandbox.setTeam({ id: 3, name: 'Support' });
    const clientId = await register();
    const code = await authorize(clientId);
    const tokens = await json(
      await post('/oauth/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: VERIFIER,
      }),
    );
    const info = (rendering: number) =>
      fetch(`${sandbox.url}/liana/v2/renderings/${rendering}/authorization`, {
        headers: { 'forest-secret-key': SECRET, 'forest-token': tokens.access_token },
      });
    expect(await json(await info(1))).toMatchObject({
      data: {
        type: 'users',
        id: '1',
        attributes: {
          email: 'test.user@canopy.test',
          teams: ['Support'],
          permission_level: 'admin',
        },
      },
    });
    expect((await info(2)).status).toBe(403);
  });

  it('logs in the user the test chose', async () => {
    await sandbox.setUsers([
      {
        id: 7,
        email: 'eve@x.test',
        firstName: 'Eve',
        lastName: 'R',
        permissionLevel: 'user',
        roleId: 1,
      },
    ]);
    sandbox.oauth.login = { userId: 7, renderingId: 1, scope: 'mcp:read' };
    const clientId = await register();
    const code = await authorize(clientId);
    const tokens = await json(
      await post('/oauth/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: VERIFIER,
      }),
    );
    expect(tokens.scope).toBe('mcp:read');
    expect(jwt.decode(tokens.access_token)).toMatchObject({ userId: 7 });
  });
});
