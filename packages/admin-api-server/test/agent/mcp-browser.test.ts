import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '@canopy/agent-core';
import { useTestDatabase } from '@canopy/test-databases';
import { chromium, type BrowserContext } from 'playwright-core';
import { bootstrapProject, setUserPassword, type AdminApiServer } from '../../src';
import { startMcpAgent } from '../helpers/mcp-agent';
import { startTestServer } from '../helpers/test-server';

// Issue 30, finding 3, in a real browser: an MCP client whose page is on another origin registers
// at the platform, sends the user through the platform's sign-in and consent, gets its code back
// on its own origin and exchanges it for tokens. Before, the registration had no CORS headers and
// the consent page's CSP (`form-action 'self'`) stopped the redirect back to the client.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const db = useTestDatabase('postgres');
let server: AdminApiServer;
let agent: Agent;
let client: Server;
let clientOrigin: string;
let mcp: string;
let context: BrowserContext;
let profile: string;

/**
 * The MCP client's page: on `/`, it reads the agent's authorization-server metadata, registers
 * itself at the registration endpoint named there, keeps its PKCE verifier and goes to the
 * authorization endpoint; on `/callback`, it exchanges the code at the token endpoint and shows
 * the answer in `#result`.
 */
const CLIENT_PAGE = `<!doctype html><html><body><pre id="result">working</pre><script>
const show = (value) => { document.getElementById('result').textContent = JSON.stringify(value); };
const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
  .replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
(async () => {
  const mcp = new URLSearchParams(location.search).get('mcp') ?? sessionStorage.getItem('mcp');
  const meta = await (await fetch(mcp + '/.well-known/oauth-authorization-server')).json();
  const redirectUri = location.origin + '/callback';
  if (location.pathname === '/callback') {
    const code = new URLSearchParams(location.search).get('code');
    const answer = await fetch(meta.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code', code, redirect_uri: redirectUri,
        client_id: sessionStorage.getItem('client'),
        code_verifier: sessionStorage.getItem('verifier'),
      }),
    });
    show({ status: answer.status, state: new URLSearchParams(location.search).get('state'),
      body: await answer.json() });
    return;
  }
  const registered = await fetch(meta.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Browser MCP client', redirect_uris: [redirectUri] }),
  });
  const { client_id } = await registered.json();
  const verifier = b64(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem('mcp', mcp);
  sessionStorage.setItem('client', client_id);
  sessionStorage.setItem('verifier', verifier);
  const authorize = new URL(meta.authorization_endpoint);
  authorize.search = new URLSearchParams({
    response_type: 'code', client_id, redirect_uri: redirectUri, state: 'browser-state',
    code_challenge: challenge, code_challenge_method: 'S256', scope: 'mcp:read',
  }).toString();
  location.href = authorize.href;
})().catch((error) => show({ error: String(error) }));
</script></body></html>`;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`,
    );
  }
  server = await startTestServer(db());
  const url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  const { secret, userId } = await bootstrapProject(server.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'ada@example.com',
  });
  await setUserPassword(server.knex, userId, 'correct horse battery');
  ({ agent, mcpUrl: mcp } = await startMcpAgent({
    serverUrl: url,
    envSecret: secret!,
    authSecret: 'mcp-browser-auth-secret',
  }));
  client = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(CLIENT_PAGE);
  });
  await new Promise<void>((resolve) => client.listen(0, '127.0.0.1', resolve));
  clientOrigin = `http://127.0.0.1:${(client.address() as AddressInfo).port}`;
  profile = mkdtempSync(join(tmpdir(), 'canopy-mcp-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await new Promise((resolve) => client?.close(resolve));
  await agent?.stop();
  await server?.close();
});

it('authorizes a client of another origin end to end in Chromium', async () => {
  const page = await context.newPage();
  await page.goto(`${clientOrigin}/?mcp=${encodeURIComponent(mcp)}`);
  // The platform's consent page, reached through the agent's authorization endpoint.
  await page.getByLabel('Email').waitFor({ timeout: 20_000 });
  const consent = await page.content();
  expect(consent).toContain('Browser MCP client');
  expect(consent).toContain(new URL(clientOrigin).host);
  expect(consent).toContain('(mcp:read)');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Authorize' }).click();
  await page.waitForURL(`${clientOrigin}/callback?**`, { timeout: 20_000 });
  await page.waitForFunction(
    "document.getElementById('result').textContent !== 'working'",
    undefined,
    {
      timeout: 20_000,
    },
  );
  const result = JSON.parse((await page.locator('#result').textContent())!) as {
    status: number;
    state: string;
    body: Record<string, unknown>;
  };
  expect(result).toMatchObject({
    status: 200,
    state: 'browser-state',
    body: { token_type: 'Bearer', scope: 'mcp:read' },
  });
  expect(result.body.access_token).toEqual(expect.any(String));
  expect(result.body.refresh_token).toEqual(expect.any(String));
}, 60_000);
