// canopy-cloud's login (OAuth 2.0 device authorization grant, RFC 8628) and its environment
// lookup (GET /liana/environment with an env secret and the developer's access token), driven
// over HTTP as canopy-cloud and a browser do, against a server on PostgreSQL.
import { useTestDatabase } from '@canopy/test-databases';
import {
  addProjectMember,
  createEnvironment,
  createProject,
  createUser,
  issueEnvironmentSecret,
  loadConfig,
  setUserPassword,
  type AdminApiServer,
  type UserRow,
} from '../src';
import { startTestServer } from './helpers/test-server';
import { browser, readForm } from '@canopy/test-browser';

const db = useTestDatabase('postgres');
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const PASSWORD = 'correct horse battery';

let server: AdminApiServer;
let url: string;
let member: UserRow;
let outsider: UserRow;
let secret: string;
let otherSecret: string;
let ids: { project: number; environment: number };

beforeAll(async () => {
  server = await startTestServer(db(), { oidcDevicePollIntervalSeconds: 1 });
  url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  const knex = server.knex;
  const project = await createProject(knex, { name: 'Shop' });
  const production = await createEnvironment(knex, { projectId: project.id, name: 'Production' });
  await knex('environments')
    .where({ id: production.id })
    .update({ api_endpoint: 'https://agent.example.com' });
  secret = await issueEnvironmentSecret(knex, production.id);
  const other = await createProject(knex, { name: 'Other' });
  const otherProduction = await createEnvironment(knex, { projectId: other.id, name: 'Live' });
  otherSecret = await issueEnvironmentSecret(knex, otherProduction.id);
  member = await createUser(knex, { email: 'ada@example.com', username: 'Ada' });
  outsider = await createUser(knex, { email: 'eve@example.com', username: 'Eve' });
  await addProjectMember(knex, {
    projectId: project.id,
    userId: member.id,
    permissionLevel: 'editor',
  });
  await addProjectMember(knex, {
    projectId: other.id,
    userId: outsider.id,
    permissionLevel: 'admin',
  });
  await setUserPassword(knex, member.id, PASSWORD);
  await setUserPassword(knex, outsider.id, PASSWORD);
  ids = { project: project.id, environment: production.id };
});

afterAll(async () => {
  await server?.close();
});

type Decision = { approve: true; email: string; password: string } | { approve: false };

/**
 * What a developer does in the browser: opens the verification page, types the code, then
 * approves and signs in on the login form, or denies. Resolves to the last page.
 */
async function decide(userCode: string, decision: Decision, base = url) {
  const page = browser(base);
  const input = await page.get(`${base}/oidc/device`);
  expect(input.status).toBe(200);
  expect(input.html).toContain('name="user_code"');
  const typed = readForm(input.html);
  const confirm = await page.post(typed.action, { ...typed.fields, user_code: userCode });
  expect(confirm.status).toBe(200);
  expect(confirm.html).toContain(`<strong>${userCode}</strong>`);
  const confirmForm = readForm(confirm.html);
  if (!decision.approve) {
    return page.post(confirmForm.action, { ...confirmForm.fields, abort: 'yes' });
  }
  const approved = await page.post(confirmForm.action, { ...confirmForm.fields, confirm: 'yes' });
  expect(approved.status).toBe(303);
  const loginUrl = new URL(approved.location!, base).toString();
  expect(new URL(loginUrl).pathname).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
  const login = await page.get(loginUrl);
  expect(login.status).toBe(200);
  expect(login.html).toContain('name="password"');
  const signedIn = await page.post(`${loginUrl}/login`, {
    email: decision.email,
    password: decision.password,
  });
  if (signedIn.status !== 303) return signedIn;
  expect(new URL(signedIn.location!, base).pathname).toMatch(/^\/oidc\/device\/[\w-]+$/);
  return page.get(signedIn.location!);
}

/** A browser that typed and approved the code: it is on the login form at `loginUrl`. */
async function openLoginForm(userCode: string) {
  const page = browser(url);
  const typed = readForm((await page.get(`${url}/oidc/device`)).html);
  const confirm = readForm(
    (await page.post(typed.action, { ...typed.fields, user_code: userCode })).html,
  );
  const approved = await page.post(confirm.action, { ...confirm.fields, confirm: 'yes' });
  return { page, loginUrl: new URL(approved.location!, url).toString() };
}

/** canopy-cloud's calls: form POSTs answered with JSON. */
async function postForm(target: string, form: Record<string, string>) {
  const response = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (await response.json()) as any };
}

async function startDeviceLogin(base = url) {
  const discovery = await fetch(`${base}/oidc/.well-known/openid-configuration`);
  const metadata = (await discovery.json()) as Record<string, string>;
  const started = await postForm(metadata.device_authorization_endpoint!, {
    client_id: 'canopy-cloud',
    scope: 'openid offline_access',
  });
  expect(started.status).toBe(200);
  const poll = () =>
    postForm(metadata.token_endpoint!, {
      grant_type: DEVICE_GRANT,
      device_code: started.body.device_code,
      client_id: 'canopy-cloud',
    });
  const refresh = (refreshToken: string) =>
    postForm(metadata.token_endpoint!, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: 'canopy-cloud',
    });
  return { metadata, authorization: started.body, poll, refresh };
}

/** A completed login of `email`: its token answer. */
async function loggedIn(email = 'ada@example.com', base = url) {
  const login = await startDeviceLogin(base);
  await decide(login.authorization.user_code, { approve: true, email, password: PASSWORD }, base);
  const tokens = await login.poll();
  expect(tokens.status).toBe(200);
  return { ...login, tokens: tokens.body as Record<string, string> };
}

async function lookUp(headers: Record<string, string>, base = url) {
  const response = await fetch(`${base}/liana/environment`, { headers });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (await response.json()) as any };
}

describe('device login', () => {
  it('advertises the device authorization endpoint for the pre-registered canopy-cloud', async () => {
    const { metadata } = await startDeviceLogin();
    expect(metadata).toMatchObject({
      device_authorization_endpoint: `${url}/oidc/device/auth`,
      token_endpoint: `${url}/oidc/token`,
    });
    expect(metadata.grant_types_supported).toEqual(
      expect.arrayContaining([DEVICE_GRANT, 'refresh_token']),
    );
    const unknown = await postForm(metadata.device_authorization_endpoint!, {
      client_id: 'not-canopy-cloud',
      scope: 'openid',
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('invalid_client');
  });

  it('issues tokens once the code is approved in the browser, and refreshes them', async () => {
    const login = await startDeviceLogin();
    expect(login.authorization).toEqual({
      device_code: expect.any(String),
      user_code: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/),
      verification_uri: `${url}/oidc/device`,
      verification_uri_complete: `${url}/oidc/device?user_code=${login.authorization.user_code}`,
      expires_in: 600,
      interval: 1,
    });
    const pending = await login.poll();
    expect(pending).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'authorization_pending' }),
    });

    // A wrong password keeps the user on the login form; the code stays pending.
    const { page, loginUrl } = await openLoginForm(login.authorization.user_code);
    const wrong = await page.post(`${loginUrl}/login`, {
      email: 'ada@example.com',
      password: 'nope',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('Wrong email or password.');
    expect((await login.poll()).body.error).toBe('authorization_pending');
    const signedIn = await page.post(`${loginUrl}/login`, {
      email: 'ada@example.com',
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(303);
    const success = await page.get(signedIn.location!);
    expect(success.status).toBe(200);
    expect(success.html).toContain('canopy-cloud is logged in');

    const tokens = await login.poll();
    expect(tokens.status).toBe(200);
    expect(tokens.body).toEqual(
      expect.objectContaining({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'openid offline_access',
      }),
    );

    const headers = (token: string) => ({
      'forest-secret-key': secret,
      authorization: `Bearer ${token}`,
    });
    expect((await lookUp(headers(tokens.body.access_token))).status).toBe(200);
    const refreshed = await login.refresh(tokens.body.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual(
      expect.objectContaining({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: 'Bearer',
      }),
    );
    expect(refreshed.body.access_token).not.toBe(tokens.body.access_token);
    expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token);
    expect((await lookUp(headers(refreshed.body.access_token))).status).toBe(200);

    // The device code is used up; presenting it again revokes the login it gave (replay).
    expect((await login.poll()).body.error).toBe('invalid_grant');
    expect((await lookUp(headers(refreshed.body.access_token))).status).toBe(401);
    expect((await login.refresh(refreshed.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('limits failed passwords per account on the login form: then even the right one gets 429', async () => {
    const grace = await createUser(server.knex, { email: 'grace@example.com', username: 'Grace' });
    await setUserPassword(server.knex, grace.id, PASSWORD);
    const login = await startDeviceLogin();
    const { page, loginUrl } = await openLoginForm(login.authorization.user_code);
    const { failuresPerAccount } = loadConfig(
      { CANOPY_TOKEN_SIGNING_KEYS: '' },
      {
        requireSigningKeys: false,
      },
    ).loginLimit!;
    for (let attempt = 0; attempt < failuresPerAccount; attempt += 1) {
      const wrong = await page.post(`${loginUrl}/login`, {
        email: 'grace@example.com',
        password: `wrong guess ${attempt}`,
      });
      expect(wrong.status).toBe(401);
    }
    const limited = await page.post(`${loginUrl}/login`, {
      email: 'grace@example.com',
      password: PASSWORD,
    });
    expect(limited.status).toBe(429);
    expect(limited.html).toContain('Too many failed sign-ins');
    expect((await login.poll()).body.error).toBe('authorization_pending');
    await server.knex('login_limits').delete();
  });

  it('takes the code from verification_uri_complete straight to the confirmation', async () => {
    const login = await startDeviceLogin();
    const page = browser(url);
    const opened = await page.get(login.authorization.verification_uri_complete);
    expect(opened.status).toBe(200);
    const submitted = readForm(opened.html);
    expect(submitted.fields.user_code).toBe(login.authorization.user_code);
    const confirm = await page.post(submitted.action, submitted.fields);
    expect(confirm.html).toContain(`<strong>${login.authorization.user_code}</strong>`);
    const confirmForm = readForm(confirm.html);
    const approved = await page.post(confirmForm.action, { ...confirmForm.fields, confirm: 'yes' });
    expect(approved.status).toBe(303);
    expect(new URL(approved.location!, url).pathname).toMatch(/^\/oidc\/interaction\//);
  });

  it('answers access_denied once the user denies the code', async () => {
    const login = await startDeviceLogin();
    const denied = await decide(login.authorization.user_code, { approve: false });
    expect(denied.status).toBe(200);
    expect(denied.html).toContain('The login was denied');
    expect(await login.poll()).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'access_denied' }),
    });
  });

  it('answers expired_token once the device code has expired, and the page says so', async () => {
    const login = await startDeviceLogin();
    const past = Math.floor(Date.now() / 1000) - 5;
    await server
      .knex('oidc_payloads')
      .where({ model: 'DeviceCode', id: login.authorization.device_code })
      .update({
        payload: server.knex.raw(`jsonb_set(payload, '{exp}', ?::jsonb)`, [String(past)]),
        expires_at: new Date(past * 1000),
      });
    expect(await login.poll()).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'expired_token' }),
    });
    const page = browser(url);
    const typed = readForm((await page.get(`${url}/oidc/device`)).html);
    const answer = await page.post(typed.action, {
      ...typed.fields,
      user_code: login.authorization.user_code,
    });
    expect(answer.html).toContain('This code has expired');
  });

  it('refuses an unknown user code on the verification page, with the page again', async () => {
    const page = browser(url);
    const typed = readForm((await page.get(`${url}/oidc/device`)).html);
    const answer = await page.post(typed.action, { ...typed.fields, user_code: 'BCDF-<GHJ>' });
    expect(answer.status).toBe(200);
    expect(answer.html).toContain('This code is not valid');
    // What was typed comes back escaped.
    expect(answer.html).toContain('value="BCDF-&#60;GHJ&#62;"');
    expect(answer.html).not.toContain('<GHJ>');
  });

  it('makes refresh fail with invalid_grant, and the access token useless, once revoked', async () => {
    const { tokens, refresh, metadata } = await loggedIn();
    expect(metadata.revocation_endpoint).toBe(`${url}/oidc/token/revocation`);
    const revoked = await fetch(metadata.revocation_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: tokens.refresh_token!,
        token_type_hint: 'refresh_token',
        client_id: 'canopy-cloud',
      }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect(await refresh(tokens.refresh_token!)).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'invalid_grant' }),
    });
    const lookup = await lookUp({
      'forest-secret-key': secret,
      authorization: `Bearer ${tokens.access_token}`,
    });
    expect(lookup.status).toBe(401);
  });

  it('makes refresh fail with invalid_grant once the grant is deleted from the database', async () => {
    const { tokens, refresh } = await loggedIn();
    const row = await server
      .knex('oidc_payloads')
      .where({ model: 'RefreshToken', id: tokens.refresh_token })
      .first('grant_id');
    await server.knex('oidc_payloads').where({ model: 'Grant', id: row.grant_id }).delete();
    expect((await refresh(tokens.refresh_token!)).body.error).toBe('invalid_grant');
    const lookup = await lookUp({
      'forest-secret-key': secret,
      authorization: `Bearer ${tokens.access_token}`,
    });
    expect(lookup.status).toBe(401);
  });
});

describe('GET /liana/environment for canopy-cloud', () => {
  let token: string;
  let outsiderToken: string;
  beforeAll(async () => {
    token = (await loggedIn('ada@example.com')).tokens.access_token!;
    outsiderToken = (await loggedIn('eve@example.com')).tokens.access_token!;
  });

  it('describes the environment and its project to a member of the project', async () => {
    const answer = await lookUp({ 'forest-secret-key': secret, authorization: `Bearer ${token}` });
    expect(answer).toEqual({
      status: 200,
      body: {
        data: {
          type: 'environments',
          id: String(ids.environment),
          attributes: { name: 'Production', api_endpoint: 'https://agent.example.com' },
          relationships: { project: { data: { type: 'projects', id: String(ids.project) } } },
        },
        included: [{ type: 'projects', id: String(ids.project), attributes: { name: 'Shop' } }],
      },
    });
  });

  it('answers 401 for a missing, unknown or foreign bearer token, before looking at the secret', async () => {
    const detail = {
      errors: [
        {
          detail: expect.stringContaining('access token is invalid, expired or revoked'),
          status: 401,
        },
      ],
    };
    // An access token of another client (an agent's user login) is no canopy-cloud login.
    const knex = server.knex;
    const row = await knex('oidc_payloads').where({ model: 'AccessToken', id: token }).first();
    await knex('oidc_payloads').insert({
      ...row,
      id: 'agent-user-token',
      payload: JSON.stringify({ ...row.payload, jti: 'agent-user-token', clientId: 'an-agent' }),
    });
    for (const authorization of [
      'Bearer not-a-token',
      'Basic abc',
      `Bearer ${secret}`,
      'Bearer ',
      'Bearer agent-user-token',
    ]) {
      expect(await lookUp({ 'forest-secret-key': secret, authorization })).toEqual({
        status: 401,
        body: detail,
      });
    }
    expect(
      await lookUp({ 'forest-secret-key': 'f'.repeat(64), authorization: 'Bearer not-a-token' }),
    ).toEqual({ status: 401, body: detail });
  });

  it('answers the same 404 for an unknown or malformed secret', async () => {
    const unknown = await lookUp({
      'forest-secret-key': 'f'.repeat(64),
      authorization: `Bearer ${token}`,
    });
    const malformed = await lookUp({
      'forest-secret-key': 'nope',
      authorization: `Bearer ${token}`,
    });
    expect(unknown).toEqual({
      status: 404,
      body: { errors: [{ detail: 'No environment has this env secret.', status: 404 }] },
    });
    expect(malformed).toEqual(unknown);
  });

  it('answers 403 to a user who is not a member of the project', async () => {
    const answer = await lookUp({
      'forest-secret-key': secret,
      authorization: `Bearer ${outsiderToken}`,
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      errors: [{ detail: expect.stringContaining('not a member of the project'), status: 403 }],
    });
    // The outsider is a member of the other project.
    const own = await lookUp({
      'forest-secret-key': otherSecret,
      authorization: `Bearer ${outsiderToken}`,
    });
    expect(own.status).toBe(200);
    expect(own.body.included[0].attributes.name).toBe('Other');
  });

  it('still answers agents, which send the env secret only', async () => {
    const answer = await lookUp({ 'forest-secret-key': secret });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      id: String(ids.environment),
      attributes: { name: 'Production', api_endpoint: 'https://agent.example.com' },
    });
    expect(await lookUp({ 'forest-secret-key': 'f'.repeat(64) })).toMatchObject({ status: 401 });
  });

  it('answers 401 once the access token has expired (OIDC_ACCESS_TOKEN_TTL_SECONDS)', async () => {
    const shortLived = await startTestServer(db(), {
      oidcAccessTokenTtlSeconds: 1,
      oidcDevicePollIntervalSeconds: 1,
    });
    try {
      const base = `http://127.0.0.1:${await shortLived.listen(0, '127.0.0.1')}`;
      const { tokens, refresh } = await loggedIn('ada@example.com', base);
      expect(tokens.expires_in).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const headers = {
        'forest-secret-key': secret,
        authorization: `Bearer ${tokens.access_token}`,
      };
      expect((await lookUp(headers, base)).status).toBe(401);
      const refreshed = await refresh(tokens.refresh_token!);
      // (The provider counts whole seconds: a 1-second token may be refused at once; the
      // renewed one is not looked up here, the 1-hour tokens above are.)
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.expires_in).toBe(1);
    } finally {
      await shortLived.close();
    }
  });
});

it('reads the access-token lifetime and the poll interval from the environment', () => {
  const keys = 'k1:0123456789abcdef0123456789abcdef';
  expect(loadConfig({ CANOPY_TOKEN_SIGNING_KEYS: keys })).toMatchObject({
    oidcAccessTokenTtlSeconds: 3600,
    oidcDevicePollIntervalSeconds: 5,
  });
  expect(
    loadConfig({
      CANOPY_TOKEN_SIGNING_KEYS: keys,
      OIDC_ACCESS_TOKEN_TTL_SECONDS: '600',
      OIDC_DEVICE_POLL_INTERVAL_SECONDS: '2',
    }),
  ).toMatchObject({ oidcAccessTokenTtlSeconds: 600, oidcDevicePollIntervalSeconds: 2 });
  expect(() =>
    loadConfig({ CANOPY_TOKEN_SIGNING_KEYS: keys, OIDC_ACCESS_TOKEN_TTL_SECONDS: '0' }),
  ).toThrow('OIDC_ACCESS_TOKEN_TTL_SECONDS must be an integer ≥ 1');
});
