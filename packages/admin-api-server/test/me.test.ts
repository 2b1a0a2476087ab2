import { createHash, randomBytes } from 'node:crypto';
import { useTestDatabase } from '@canopy/test-databases';
import { bootstrapProject, signSessionToken, type AdminApiServer } from '../src';
import { storeSchema } from '../src/store/environment-schema';
import { apiClient, type ApiClient } from './helpers/api-client';
import { CookieJar } from '@canopy/test-browser';
import { managementApi } from './helpers/management-api';
import { startTestServer, TEST_KEYS } from './helpers/test-server';
import request from 'supertest';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let url: string;
let api: ApiClient;
let shopAdmin: ReturnType<typeof managementApi>;
let grace: { id: number; session: string };
let mallory: { id: number; session: string };
let shopSecret: string;
const SCHEMA = { collections: [{ name: 'orders', fields: [] }], meta: { liana: 'canopy' } };
const GRACE_PASSWORD = 'grace-own-password-123';

const sessionOf = (userId: number) =>
  signSessionToken(TEST_KEYS, { userId, sso: false, expiresAt: new Date(Date.now() + 3_600_000) });

beforeAll(async () => {
  server = await startTestServer(db());
  url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  api = apiClient(server.app);
  const shop = await bootstrapProject(server.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'ada@example.com',
  });
  shopSecret = shop.secret!;
  const other = await bootstrapProject(server.knex, {
    project: 'Other',
    environment: 'Production',
    adminEmail: 'mallory@example.com',
  });
  mallory = { id: other.userId, session: sessionOf(other.userId) };
  shopAdmin = managementApi(url, shop.userId);
  // What the Shop agent uploaded when it started (roles may only name declared collections).
  const { project_id: projectId } = await server
    .knex('environments')
    .where({ id: shop.environmentId })
    .first('project_id');
  await storeSchema(
    server.knex,
    { id: shop.environmentId, projectId },
    { hash: 'h1', document: SCHEMA, collections: [{ name: 'orders', actionNames: ['Refund'] }] },
  );
  await shopAdmin('PATCH', '/v1/project/Shop/environments/Production', {
    apiEndpoint: 'http://127.0.0.1:3310',
  });
  await shopAdmin('POST', '/v1/project/Shop/environments', {
    name: 'Dev',
    type: 'development',
  });
  await shopAdmin('POST', '/v1/project/Shop/roles', {
    name: 'Support',
    rights: {
      collections: { orders: { deleteEnabled: false, exportEnabled: false } },
      actions: { orders: { Refund: { approvalRequired: true } } },
    },
  });
  await shopAdmin('POST', '/v1/project/Shop/teams', { name: 'Europe' });
  const member = await shopAdmin('POST', '/v1/project/Shop/members', {
    email: 'grace@example.com',
    firstName: 'Grace',
    lastName: 'Hopper',
    permissionLevel: 'user',
    roleName: 'Support',
    teamNames: ['Europe'],
  });
  await shopAdmin('POST', '/v1/account/password', {
    token: member.invitation.token,
    password: GRACE_PASSWORD,
  });
  grace = { id: member.id, session: sessionOf(member.id) };
}, 30_000);

afterAll(async () => {
  await server.close();
});

describe('GET /v1/me/workspaces', () => {
  it("lists only the user's projects, with environments, teams and role", async () => {
    const response = await api.get('/v1/me/workspaces', { token: grace.session });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body.user).toEqual({
      id: grace.id,
      email: 'grace@example.com',
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    expect(response.body.projects).toHaveLength(1);
    const [project] = response.body.projects;
    expect(project).toMatchObject({
      name: 'Shop',
      permissionLevel: 'user',
      role: { name: 'Support' },
    });
    expect(project.teams.map((team: { name: string }) => team.name)).toEqual(['Europe']);
    expect(project.environments).toEqual([
      { name: 'Dev', type: 'development', isDevelopment: true, apiEndpoint: null },
      {
        name: 'Production',
        type: 'production',
        isDevelopment: false,
        apiEndpoint: 'http://127.0.0.1:3310',
      },
    ]);
    const others = await api.get('/v1/me/workspaces', { token: mallory.session });
    expect(others.body.projects.map((p: { name: string }) => p.name)).toEqual(['Other']);
  });

  it('refuses a missing, forged or unknown token with a 401', async () => {
    expect((await api.get('/v1/me/workspaces')).status).toBe(401);
    const forged = await api.get('/v1/me/workspaces', { token: `${grace.session}x` });
    expect(forged.status).toBe(401);
    const opaque = await api.get('/v1/me/workspaces', {
      token: randomBytes(32).toString('base64url'),
    });
    expect(opaque.status).toBe(401);
    expect(opaque.body.message).toMatch(/sign in to the console again/);
  });
});

describe('GET /v1/me/projects/:project/environments/:environment', () => {
  const path = '/v1/me/projects/Shop/environments/Production';

  it("answers the role's rights in the management API's shape, teams and schema", async () => {
    const response = await api.get(path, { token: grace.session });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      project: { name: 'Shop' },
      environment: { name: 'Production', isDevelopment: false },
      user: { id: grace.id, permissionLevel: 'user' },
      role: { name: 'Support' },
      rights: {
        collections: { orders: { deleteEnabled: false, exportEnabled: false } },
        actions: { orders: { Refund: { approvalRequired: true } } },
      },
      schema: SCHEMA,
    });
    expect(response.body.teams.map((team: { name: string }) => team.name)).toEqual(['Europe']);
    expect(response.headers.etag).toBe(`"${response.body.rightsVersion}"`);
  });

  it('answers 304 while nothing changed, and the new rights once the role changes', async () => {
    const first = await api.get(path, { token: grace.session });
    const again = await api.get(path, {
      token: grace.session,
      headers: { 'if-none-match': first.headers.etag! },
    });
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    await shopAdmin('PATCH', '/v1/project/Shop/roles/Support', {
      rights: { collections: { orders: { deleteEnabled: true, editEnabled: false } } },
    });
    const changed = await api.get(path, {
      token: grace.session,
      headers: { 'if-none-match': first.headers.etag! },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.rightsVersion).not.toBe(first.body.rightsVersion);
    expect(changed.body.rights.collections.orders).toEqual({
      deleteEnabled: true,
      editEnabled: false,
    });
  });

  it('answers a project of another tenant exactly like an unknown one (404)', async () => {
    const foreign = await api.get('/v1/me/projects/Other/environments/Production', {
      token: grace.session,
    });
    const unknown = await api.get('/v1/me/projects/Nope/environments/Production', {
      token: grace.session,
    });
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(foreign.body.code).toBe(unknown.body.code);
    expect(foreign.body.message.replace('Other', 'X')).toBe(
      unknown.body.message.replace('Nope', 'X'),
    );
    // And the other way round: Mallory sees nothing of Shop.
    const reverse = await api.get(path, { token: mallory.session });
    expect(reverse.status).toBe(404);
    expect(reverse.body.code).toBe('project_not_found');
  });

  it('answers an unknown environment of a project of the user with a 404 that names it', async () => {
    const response = await api.get('/v1/me/projects/Shop/environments/Staging', {
      token: grace.session,
    });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('environment_not_found');
    expect(response.body.message).toMatch(/"Staging"/);
  });
});

describe('the console login (OIDC client canopy-console, PKCE)', () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const redirectUri = () => `${url}/oidc/callback`;
  const authorize = (jar: CookieJar, params: Record<string, string>) =>
    fetch(`${url}/oidc/auth?${new URLSearchParams(params).toString()}`, {
      redirect: 'manual',
      headers: { cookie: jar.header() },
    });
  /** Follows redirects within the server, keeping cookies, until the callback page. */
  const follow = async (jar: CookieJar, response: Response): Promise<URL> => {
    let current = response;
    for (let hops = 0; hops < 8; hops += 1) {
      jar.store(current);
      const location = current.headers.get('location');
      if (!location) throw new Error(`Stopped at ${current.status}: ${await current.text()}`);
      const next = new URL(location, url);
      if (next.pathname === '/oidc/callback') return next;
      current = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
    }
    throw new Error('Too many redirects');
  };
  /** The console's authorization request, with its PKCE challenge. */
  const consoleLogin = (state: string) => ({
    client_id: 'canopy-console',
    redirect_uri: redirectUri(),
    response_type: 'code',
    scope: 'openid',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  /** Opens the login form the authorization request led to and submits Grace's password. */
  const submitPassword = async (jar: CookieJar, started: Response): Promise<Response> => {
    jar.store(started);
    const interaction = new URL(started.headers.get('location')!, url);
    const form = await fetch(interaction, { headers: { cookie: jar.header() } });
    expect(await form.text()).toMatch(/name="password"/);
    return fetch(`${interaction}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email: 'grace@example.com',
        password: GRACE_PASSWORD,
      }).toString(),
    });
  };

  it('signs in with a password, gets an access token the /v1/me routes accept, and then signs in to an agent without a second password', async () => {
    const jar = new CookieJar();
    const started = await authorize(jar, consoleLogin('state-1'));
    expect(started.status).toBe(303);
    const submitted = await submitPassword(jar, started);
    const callback = await follow(jar, submitted);
    expect(callback.searchParams.get('state')).toBe('state-1');
    const code = callback.searchParams.get('code')!;

    const exchange = (codeVerifier: string) =>
      fetch(`${url}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: 'canopy-console',
          code,
          redirect_uri: redirectUri(),
          code_verifier: codeVerifier,
        }).toString(),
      });
    // A wrong verifier is refused (and burns the code, as OAuth requires).
    expect((await exchange(randomBytes(32).toString('base64url'))).status).toBe(400);

    // Again, with the right verifier this time, on a fresh code from the same browser session.
    const jar2 = jar;
    const again = await authorize(jar2, consoleLogin('state-2'));
    const callback2 = await follow(jar2, again);
    // The console's fetch, from the browser that signed in: it carries the platform login cookie.
    const token = await fetch(`${url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar2.header() },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: 'canopy-console',
        code: callback2.searchParams.get('code')!,
        redirect_uri: redirectUri(),
        code_verifier: verifier,
      }).toString(),
    });
    expect(token.status).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    const mine = await api.get('/v1/me/workspaces', { token: accessToken });
    expect(mine.status).toBe(200);
    expect(mine.body.user.id).toBe(grace.id);
    // The console's token also carries its user to the management API (the console's settings),
    // where only admins of the project get in.
    const refused = await api.get('/v1/project/Shop', { token: accessToken });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only an admin of project "Shop" can manage it.');
    expect(
      (await api.get('/v1/project/Shop/application-tokens', { token: accessToken })).status,
    ).toBe(403);
    expect((await api.get('/v1/project/Other', { token: accessToken })).status).toBe(404);
    expect((await api.get('/v1/project/Shop', { token: `${accessToken}x` })).status).toBe(401);
    // The console's "Change password": the console's token is accepted, the current password checked.
    const change = (currentPassword: string, newPassword: string) =>
      request(server.app)
        .put('/v1/account/password')
        .set('authorization', `Bearer ${accessToken}`)
        .send({ currentPassword, newPassword });
    const wrongCurrent = await change('not the current one', 'grace-new-password-1');
    expect(wrongCurrent.status).toBe(401);
    expect(wrongCurrent.body.message).toBe('The current password is wrong.');
    expect((await change(GRACE_PASSWORD, 'grace-new-password-1')).status).toBe(204);
    expect((await change('grace-new-password-1', GRACE_PASSWORD)).status).toBe(204);
    await shopAdmin('PATCH', `/v1/project/Shop/members/${grace.id}`, { permissionLevel: 'admin' });
    const asAdmin = await api.get('/v1/project/Shop', { token: accessToken });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.members.map((m: { email: string }) => m.email)).toContain(
      'grace@example.com',
    );
    await shopAdmin('PATCH', `/v1/project/Shop/members/${grace.id}`, { permissionLevel: 'user' });

    // An agent of Shop registers its client; Grace, signed in already, is not asked again.
    const registered = await fetch(`${url}/oidc/reg`, {
      method: 'POST',
      headers: { 'forest-secret-key': shopSecret, 'content-type': 'application/json' },
      body: JSON.stringify({ token_endpoint_auth_method: 'none', redirect_uris: [redirectUri()] }),
    });
    expect(registered.status).toBe(201);
    const { client_id: agentClient } = (await registered.json()) as { client_id: string };
    const agentLogin = await authorize(jar, {
      client_id: agentClient,
      redirect_uri: redirectUri(),
      response_type: 'code',
      scope: 'openid email profile',
      state: 'agent-1',
    });
    const agentCallback = await follow(jar, agentLogin);
    expect(agentCallback.searchParams.get('state')).toBe('agent-1');
    expect(agentCallback.searchParams.get('code')).toBeTruthy();
  });

  it("signs out through the platform's own logout page, after which a sign-in asks for the password again", async () => {
    const jar = new CookieJar();
    const submitted = await submitPassword(jar, await authorize(jar, consoleLogin('state-out')));
    expect((await follow(jar, submitted)).searchParams.get('code')).toBeTruthy();

    // The confirmation page is the platform's, with the provider's form (action and xsrf).
    const confirm = await fetch(`${url}/oidc/session/end?client_id=canopy-console`, {
      headers: { cookie: jar.header() },
    });
    jar.store(confirm);
    expect(confirm.status).toBe(200);
    const html = await confirm.text();
    expect(html).toContain('<title>Sign out of Canopy</title>');
    expect(html).toMatch(/<button type="submit" form="op.logoutForm" name="logout" value="yes"/);
    const action = /<form[^>]* action="([^"]+)"/.exec(html)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    expect(action && xsrf).toBeTruthy();

    const confirmed = await fetch(new URL(action!, url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }).toString(),
    });
    jar.store(confirmed);
    expect(confirmed.status).toBe(303);
    const done = await fetch(new URL(confirmed.headers.get('location')!, url), {
      headers: { cookie: jar.header() },
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('<title>Signed out of Canopy</title>');

    // The browser session is gone: the next sign-in stops at the password form.
    const again = await authorize(jar, consoleLogin('state-again'));
    jar.store(again);
    const next = new URL(again.headers.get('location')!, url);
    expect(next.pathname).toMatch(/^\/oidc\/interaction\//);
    const form = await fetch(next, { headers: { cookie: jar.header() } });
    expect(await form.text()).toMatch(/name="password"/);
  });

  it('requires PKCE from the console client', async () => {
    const response = await authorize(new CookieJar(), {
      client_id: 'canopy-console',
      redirect_uri: redirectUri(),
      response_type: 'code',
      scope: 'openid',
      state: 's',
    });
    const location = new URL(response.headers.get('location')!, url);
    expect(location.pathname).toBe('/oidc/callback');
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });
});
