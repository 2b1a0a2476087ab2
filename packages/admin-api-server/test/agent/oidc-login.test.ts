import { useTestDatabase } from '@canopy/test-databases';
import { bootstrapProject, type AdminApiServer } from '../../src';
import { startTestServer } from '../helpers/test-server';
import { CookieJar } from '@canopy/test-browser';
import { startScenarioAgent } from './agent-scenario';
import { managementApi } from '../helpers/management-api';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let url: string;
let stopAgent: () => Promise<void>;
let agentUrl: string;
let teamId: number;
let readToken: string;

beforeAll(async () => {
  server = await startTestServer(db());
  url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  const owner = await bootstrapProject(server.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'owner@example.com',
  });
  const api = managementApi(url, owner.userId);
  const { secret } = await api('PATCH', '/v1/project/Shop/environments/Production', {
    rotateSecret: true,
  });
  const team = await api('POST', '/v1/project/Shop/teams', { name: 'Support' });
  teamId = team.id;
  const ada = await api('POST', '/v1/project/Shop/members', {
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Byron',
    permissionLevel: 'editor',
    roleName: 'Admin',
    teamNames: ['Support'],
    tags: { region: 'EU' },
  });
  ({ token: readToken } = await api('POST', '/v1/project/Shop/application-tokens', {
    name: 'read logs',
    scopes: ['activity_logs:read'],
  }));
  // Ada sets her own password through the one-time invitation the admin handed her.
  await api('POST', '/v1/account/password', {
    token: ada.invitation.token,
    password: 'correct horse battery',
  });
  const started = await startScenarioAgent({
    url,
    envSecret: secret,
    user: { id: 0, email: '', team: '', role: '', renderingId: 0 },
    denyOrderEdits: async () => undefined,
    scopeOrdersToEu: async () => undefined,
    activityLogs: async () => [],
  });
  stopAgent = () => started.agent.stop();
  agentUrl = `http://127.0.0.1:${started.agent.standaloneServerPort}/forest`;
}, 30_000);

afterAll(async () => {
  await stopAgent?.();
  await server?.close();
});

async function startLogin(): Promise<{ jar: CookieJar; loginUrl: string }> {
  const started = await fetch(`${agentUrl}/authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ renderingId: teamId }),
  });
  expect(started.status).toBe(200);
  const { authorizationUrl } = (await started.json()) as { authorizationUrl: string };
  expect(authorizationUrl.startsWith(`${url}/oidc/auth?`)).toBe(true);
  const jar = new CookieJar();
  const authorize = await fetch(authorizationUrl, { redirect: 'manual' });
  jar.store(authorize);
  const loginUrl = new URL(authorize.headers.get('location')!, url).toString();
  const form = await fetch(loginUrl, { headers: { cookie: jar.header() } });
  expect(form.status).toBe(200);
  expect(await form.text()).toContain('name="password"');
  return { jar, loginUrl };
}

const post = (jar: CookieJar, loginUrl: string, email: string, password: string) =>
  fetch(`${loginUrl}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });

it('logs a user in to the agent through the OIDC flow, driven over HTTP', async () => {
  const { jar, loginUrl } = await startLogin();
  const submitted = await post(jar, loginUrl, 'ada@example.com', 'correct horse battery');
  expect(submitted.status).toBe(303);
  jar.store(submitted);
  const resumed = await fetch(new URL(submitted.headers.get('location')!, url), {
    redirect: 'manual',
    headers: { cookie: jar.header() },
  });
  const callback = new URL(resumed.headers.get('location')!, url);
  expect(callback.pathname).toBe('/oidc/callback');
  // The callback page hands the whole authorization response over, `iss` included: discovery
  // advertises authorization_response_iss_parameter_supported, so agents may require it.
  const discovery = (await (
    await fetch(`${url}/oidc/.well-known/openid-configuration`)
  ).json()) as { issuer: string; authorization_response_iss_parameter_supported?: boolean };
  expect(discovery.authorization_response_iss_parameter_supported).toBe(true);
  const page = await fetch(callback);
  const response = (await page.json()) as { code: string; state: string; iss: string };
  expect(response).toEqual({
    code: callback.searchParams.get('code'),
    state: callback.searchParams.get('state'),
    iss: discovery.issuer,
  });
  expect(JSON.parse(response.state)).toEqual({ renderingId: teamId });

  // Our agent takes the same parameters (it ignores `iss`).
  const exchanged = await fetch(
    `${agentUrl}/authentication/callback?${new URLSearchParams(response).toString()}`,
  );
  const body = (await exchanged.json()) as { token: string; tokenData: Record<string, unknown> };
  expect(exchanged.status).toBe(200);
  expect(body.tokenData).toMatchObject({
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Byron',
    team: 'Support',
    role: 'Admin',
    permissionLevel: 'editor',
    renderingId: teamId,
    tags: { region: 'EU' },
  });
  const read = await fetch(`${agentUrl}/orders/2?timezone=Europe/Paris`, {
    headers: { authorization: `Bearer ${body.token}` },
  });
  expect(read.status).toBe(200);

  // The agent reports the read; the public API shows it, attributed to Ada and her team.
  const deadline = Date.now() + 10_000;
  let logs: { action: string; user: { email: string }; team: { name: string } }[] = [];
  while (logs.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answer = await fetch(
      `${url}/v1/project/Shop/environment/Production/activity-logs?action=read`,
      { headers: { authorization: `Bearer ${readToken}` } },
    );
    logs = ((await answer.json()) as { data: typeof logs }).data;
  }
  expect(logs).toEqual([
    expect.objectContaining({
      action: 'read',
      recordIds: ['2'],
      collection: { object: 'collection', name: 'orders' },
      user: expect.objectContaining({ email: 'ada@example.com' }),
      team: { object: 'team', name: 'Support' },
    }),
  ]);
});

it('refuses a wrong password on the login form, without saying which part was wrong', async () => {
  const { jar, loginUrl } = await startLogin();
  const wrong = await post(jar, loginUrl, 'ada@example.com', 'not the password');
  expect(wrong.status).toBe(401);
  expect(await wrong.text()).toContain('Wrong email or password.');
  const unknown = await post(jar, loginUrl, 'nobody@example.com', 'not the password');
  expect(await unknown.text()).toContain('Wrong email or password.');
});

it('keeps the typed email after a wrong password, on a page styled by the platform stylesheet', async () => {
  const { jar, loginUrl } = await startLogin();
  const wrong = await post(jar, loginUrl, 'Ada@Example.com', 'not the password');
  const html = await wrong.text();
  expect(html).toContain('<input type="email" name="email" value="Ada@Example.com"');
  // The password gets the focus; the email stays as typed (escaped).
  expect(html).toMatch(/name="password"[^>]*autofocus/);
  const quoted = await post(jar, loginUrl, '"><script>x</script>@example.com', 'nope');
  expect(await quoted.text()).toContain('value="&#34;&#62;&#60;script&#62;x');

  // The stylesheet and script are files of the platform (the CSP allows no inline ones).
  const csp = wrong.headers.get('content-security-policy')!;
  expect(csp).toContain("script-src 'self'");
  const sheet = /<link rel="stylesheet" href="([^"]+)">/.exec(html)![1]!;
  const script = /<script src="([^"]+)" defer><\/script>/.exec(html)![1]!;
  const css = await fetch(`${url}${sheet}`);
  expect(css.headers.get('content-type')).toContain('text/css');
  expect(await css.text()).toContain('prefers-color-scheme: dark');
  const js = await fetch(`${url}${script}`);
  expect(js.headers.get('content-type')).toContain('javascript');
  expect(html).not.toMatch(/<script>|style="/);
});

it('answers an unknown login interaction with an OAuth error, not a crash', async () => {
  const answer = await fetch(`${url}/oidc/interaction/unknown-uid`);
  expect(answer.status).toBe(400);
  expect(await answer.json()).toMatchObject({ error: 'invalid_request' });
});
