import { createHash, randomBytes } from 'node:crypto';
import type { Agent } from '@canopy/agent-core';
import { useTestDatabase } from '@canopy/test-databases';
import { bootstrapProject, setUserPassword, type AdminApiServer } from '../../src';
import { startMcpAgent } from '../helpers/mcp-agent';
import { startTestServer } from '../helpers/test-server';

const db = useTestDatabase('postgres');
const CALLBACK = 'http://127.0.0.1:9/callback';
let server: AdminApiServer;
let agent: Agent;
let url: string;
let mcp: string;

beforeAll(async () => {
  server = await startTestServer(db());
  url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  const { secret, userId } = await bootstrapProject(server.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'ada@example.com',
  });
  await setUserPassword(server.knex, userId, 'correct horse battery');
  ({ agent, mcpUrl: mcp } = await startMcpAgent({
    serverUrl: url,
    envSecret: secret!,
    authSecret: 'mcp-oauth-auth-secret',
  }));
}, 30_000);

afterAll(async () => {
  await agent?.stop();
  await server?.close();
});

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

it('authorizes an MCP client through the platform sign-in, then refreshes its tokens', async () => {
  const registered = await fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'jest host', redirect_uris: [CALLBACK] }),
  });
  expect(registered.status).toBe(201);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };

  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = new URL(`${mcp}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CALLBACK,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'xyz',
    scope: 'mcp:read mcp:write',
  })) {
    authorize.searchParams.set(name, value);
  }
  const relayed = await fetch(authorize, { redirect: 'manual' });
  const signIn = new URL(relayed.headers.get('location')!);
  expect(signIn.origin + signIn.pathname).toBe(`${url}/oauth/authorize`);
  const page = await fetch(signIn);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('jest host');

  const fields = Object.fromEntries(signIn.searchParams);
  const refused = await fetch(
    `${url}/oauth/authorize`,
    form({ ...fields, email: 'ada@example.com', password: 'wrong password!' }),
  );
  expect(refused.status).toBe(401);
  const accepted = await fetch(
    `${url}/oauth/authorize`,
    form({ ...fields, email: 'ada@example.com', password: 'correct horse battery' }),
  );
  const callback = new URL(accepted.headers.get('location')!);
  expect(callback.origin + callback.pathname).toBe(CALLBACK);
  expect(callback.searchParams.get('state')).toBe('xyz');

  const exchanged = await fetch(`${mcp}/oauth/token`, {
    ...form({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: CALLBACK,
      client_id: clientId,
    }),
  });
  const tokens = (await exchanged.json()) as Record<string, string>;
  expect(exchanged.status).toBe(200);
  expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'mcp:read mcp:write' });

  const listed = await fetch(`${mcp}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokens.access_token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  expect(listed.status).toBe(200);
  expect(await listed.text()).toContain('"name":"list"');

  const refreshed = await fetch(
    `${mcp}/oauth/token`,
    form({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: clientId,
    }),
  );
  expect(refreshed.status).toBe(200);
  expect(((await refreshed.json()) as { access_token?: string }).access_token).toEqual(
    expect.any(String),
  );

  const replayed = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', code: 'x' }),
  });
  expect(replayed.status).toBe(401);
  expect(await replayed.json()).toMatchObject({ error: 'invalid_client' });
});
