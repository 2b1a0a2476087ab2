import { createHash, randomBytes } from 'node:crypto';
import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import {
  bootstrapProject,
  runCli,
  setUserPassword,
  signSessionToken,
  type AdminApiServer,
} from '../src';
import { recordingCliIo, startTestServer, TEST_KEYS } from './helpers/test-server';

const db = useTestDatabase('postgres');
const LIMIT = {
  failuresPerAccount: 3,
  failuresPerAddress: 6,
  windowSeconds: 60,
  registrationsPerAddress: 4,
};
const ADA_PASSWORD = 'ada-own-password-123';
const CALLBACK = 'http://127.0.0.1:9/callback';
let server: AdminApiServer;
let shop: { userId: number; environmentId: number };
let other: { userId: number; environmentId: number };

const sessionOf = (userId: number) =>
  signSessionToken(TEST_KEYS, { userId, sso: false, expiresAt: new Date(Date.now() + 3_600_000) });
const as = (token: string) => ({
  get: (path: string) => request(server.app).get(path).set('authorization', `Bearer ${token}`),
  post: (path: string, body: object = {}) =>
    request(server.app).post(path).set('authorization', `Bearer ${token}`).send(body),
  put: (path: string, body: object) =>
    request(server.app).put(path).set('authorization', `Bearer ${token}`).send(body),
  delete: (path: string) =>
    request(server.app).delete(path).set('authorization', `Bearer ${token}`),
});

beforeAll(async () => {
  server = await startTestServer(db(), { loginLimit: LIMIT, trustProxy: true });
  const bootstrap = async (project: string, adminEmail: string) => {
    const result = await bootstrapProject(server.knex, {
      project,
      environment: 'Production',
      adminEmail,
    });
    return { userId: result.userId, environmentId: result.environmentId };
  };
  shop = await bootstrap('Shop', 'ada@example.com');
  other = await bootstrap('Other', 'mallory@example.com');
  // The operator's CLI path (set-password) gives the first admins their passwords.
  await setUserPassword(server.knex, shop.userId, ADA_PASSWORD);
  await setUserPassword(server.knex, other.userId, 'mallory-own-password');
});

afterAll(async () => {
  await server.close();
});

beforeEach(async () => {
  await server.knex('login_limits').delete();
});

/** An MCP OAuth client and the fields of its sign-in form for an environment. */
async function mcpSignInFields(environmentId: number): Promise<Record<string, string>> {
  const registered = await request(server.app)
    .post('/oauth/register')
    .set('x-forwarded-for', randomBytes(4).join('.'))
    .send({ redirect_uris: [CALLBACK] });
  expect(registered.status).toBe(201);
  return {
    client_id: registered.body.client_id,
    redirect_uri: CALLBACK,
    code_challenge: createHash('sha256').update('verifier').digest('base64url'),
    code_challenge_method: 'S256',
    response_type: 'code',
    environmentId: String(environmentId),
  };
}

const signIn = (fields: Record<string, string>, email: string, password: string) =>
  request(server.app)
    .post('/oauth/authorize')
    .type('form')
    .send({ ...fields, email, password });

describe('issue 17 finding 1: a project admin has no power over another user’s account', () => {
  it('adding an existing user gives no invitation, and no route sets their password', async () => {
    const mallory = as(sessionOf(other.userId));
    const added = await mallory.post('/v1/project/Other/members', {
      email: 'ada@example.com',
      permissionLevel: 'user',
    });
    expect(added.status).toBe(201);
    expect(added.body.id).toBe(shop.userId);
    expect(added.body).not.toHaveProperty('invitation');

    const takeover = await mallory.put(`/v1/project/Other/members/${shop.userId}/password`, {
      password: 'mallory-chose-this',
    });
    expect(takeover.status).toBe(404);
    expect(takeover.body.code).toBe('route_not_found');

    const fields = await mcpSignInFields(shop.environmentId);
    expect((await signIn(fields, 'ada@example.com', 'mallory-chose-this')).status).toBe(401);
    const own = await signIn(fields, 'ada@example.com', ADA_PASSWORD);
    expect(own.status).toBe(302);
    expect(new URL(own.headers.location!).searchParams.get('code')).toBeTruthy();
  });

  it('answers a project the user is no member of exactly like an unknown project', async () => {
    const mallory = as(sessionOf(other.userId));
    const foreign = await mallory.get('/v1/project/Shop');
    const unknown = await mallory.get('/v1/project/Nowhere');
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(foreign.body.code).toBe(unknown.body.code);
    expect(foreign.body.message.replace('Shop', 'X')).toBe(
      unknown.body.message.replace('Nowhere', 'X'),
    );
  });
});

describe('invitations and own passwords', () => {
  it('invites a new user with a one-time, expiring link whose token only the invitee gets', async () => {
    const ada = as(sessionOf(shop.userId));
    const added = await ada.post('/v1/project/Shop/members', {
      email: 'grace@example.com',
      permissionLevel: 'editor',
    });
    expect(added.status).toBe(201);
    expect(added.headers['cache-control']).toBe('no-store');
    const { token, url, expiresAt } = added.body.invitation;
    expect(url).toMatch(/\/account\/password\?token=/);
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const stored = await server.knex('account_tokens').select('token_hash');
    expect(JSON.stringify(stored)).not.toContain(token);

    const page = await request(server.app).get(new URL(url).pathname + new URL(url).search);
    expect(page.status).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.text).toContain('name="password"');

    const short = await request(server.app)
      .post('/v1/account/password')
      .send({ token, password: 'short' });
    expect(short.status).toBe(400);
    const set = await request(server.app)
      .post('/v1/account/password')
      .send({ token, password: 'grace-own-password' });
    expect(set.status).toBe(204);
    const again = await request(server.app)
      .post('/v1/account/password')
      .send({ token, password: 'someone-elses-pass' });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_token');
    const fields = await mcpSignInFields(shop.environmentId);
    expect((await signIn(fields, 'grace@example.com', 'grace-own-password')).status).toBe(302);
  });

  it('refuses an expired link, and counts failed redemptions per address', async () => {
    const added = await as(sessionOf(shop.userId)).post('/v1/project/Shop/members', {
      email: 'linus@example.com',
      permissionLevel: 'user',
    });
    const { token } = added.body.invitation;
    await server
      .knex('account_tokens')
      .where({ user_id: added.body.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await request(server.app)
      .post('/v1/account/password')
      .send({ token, password: 'linus-own-password' });
    expect(expired.status).toBe(400);
    for (let attempt = 1; attempt < LIMIT.failuresPerAddress; attempt += 1) {
      await request(server.app)
        .post('/v1/account/password')
        .send({ token: `guess-${attempt}`, password: 'linus-own-password' });
    }
    const limited = await request(server.app)
      .post('/v1/account/password')
      .send({ token: 'guess-last', password: 'linus-own-password' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('lets a signed-in user change their own password with the current one, revoking sessions', async () => {
    const user = await server
      .knex('users')
      .insert({ email: 'kim@example.com', username: 'kim' })
      .returning('id');
    const kimId = user[0].id as number;
    await setUserPassword(server.knex, kimId, 'kim-first-password');
    const session = sessionOf(kimId);
    const wrong = await as(session).put('/v1/account/password', {
      currentPassword: 'not-kims-password',
      newPassword: 'kim-second-password',
    });
    expect(wrong.status).toBe(401);
    const changed = await as(session).put('/v1/account/password', {
      currentPassword: 'kim-first-password',
      newPassword: 'kim-second-password',
    });
    expect(changed.status).toBe(204);
    const after = await as(session).post('/v1/account/sessions/revoke');
    expect(after.status).toBe(401);
    expect(after.body.message).toContain('revoked');
  });
});

describe('session revocation', () => {
  it('refuses a revoked session token from the next request, other sessions going on', async () => {
    const first = sessionOf(other.userId);
    const second = sessionOf(other.userId);
    expect((await as(first).get('/v1/project/Other')).status).toBe(200);
    expect((await as(first).post('/v1/account/sessions/revoke')).status).toBe(204);
    const refused = await as(first).get('/v1/project/Other');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      error: 'unauthorized',
      message: expect.stringContaining('revoked'),
    });
    expect((await as(second).get('/v1/project/Other')).status).toBe(200);

    expect(
      (await as(second).post('/v1/account/sessions/revoke', { everywhere: true })).status,
    ).toBe(204);
    expect((await as(second).get('/v1/project/Other')).status).toBe(401);
    // A session signed afterwards works.
    expect((await as(sessionOf(other.userId)).get('/v1/project/Other')).status).toBe(200);
  });
});

describe('login limits (shared by every process through PostgreSQL)', () => {
  it('refuses even the right password once an account failed too often, in another process too', async () => {
    const fields = await mcpSignInFields(shop.environmentId);
    for (let attempt = 0; attempt < LIMIT.failuresPerAccount; attempt += 1) {
      expect((await signIn(fields, 'ADA@example.com', `guess number ${attempt}`)).status).toBe(401);
    }
    const limited = await signIn(fields, 'ada@example.com', ADA_PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.text).toContain('Too many failed sign-ins');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    const second = await startTestServer(db(), { loginLimit: LIMIT, trustProxy: true });
    try {
      const elsewhere = await request(second.app)
        .post('/oauth/authorize')
        .type('form')
        .send({ ...fields, email: 'ada@example.com', password: ADA_PASSWORD });
      expect(elsewhere.status).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('says until when an account is locked, the same for an email without an account', async () => {
    const fields = await mcpSignInFields(shop.environmentId);
    const lockOut = async (email: string) => {
      for (let attempt = 0; attempt < LIMIT.failuresPerAccount; attempt += 1) {
        await request(server.app)
          .post('/oauth/authorize')
          .set('x-forwarded-for', randomBytes(4).join('.'))
          .type('form')
          .send({ ...fields, email, password: `guess ${attempt}` });
      }
      return request(server.app)
        .post('/oauth/authorize')
        .set('x-forwarded-for', randomBytes(4).join('.'))
        .type('form')
        .send({ ...fields, email, password: 'yet another guess' });
    };
    const before = Date.now();
    const locked = await lockOut('ada@example.com');
    expect(locked.status).toBe(429);
    const until = /<time data-local datetime="([^"]+)">(\d\d:\d\d) UTC<\/time>/.exec(locked.text);
    expect(until).not.toBeNull();
    const untilMs = Date.parse(until![1]!);
    expect(untilMs).toBeGreaterThan(before + (LIMIT.windowSeconds - 5) * 1000);
    expect(untilMs).toBeLessThan(Date.now() + (LIMIT.windowSeconds + 5) * 1000);
    expect(until![2]).toBe(until![1]!.slice(11, 16));
    expect(locked.text).toContain('ask an admin of your project to unlock your account');
    // The email typed stays in the form.
    expect(locked.text).toContain('value="ada@example.com"');
    // An email nobody has gets the very same page (but for the time and the email).
    const nobody = await lockOut('nobody-here@example.com');
    expect(nobody.status).toBe(429);
    const shape = (html: string) =>
      html.replace(/<time[^>]*>[^<]*<\/time>/, '<time>').replace(/value="[^"]*@example.com"/, '');
    expect(shape(nobody.text)).toBe(shape(locked.text));
  });

  it('lets an admin see who is locked and unlock them, recorded in the admin logs', async () => {
    const admin = as(sessionOf(shop.userId));
    const added = await admin.post('/v1/project/Shop/members', {
      email: 'bea@example.com',
      permissionLevel: 'user',
    });
    expect(added.status).toBe(201);
    const bea = added.body.id as number;
    await setUserPassword(server.knex, bea, 'bea-own-password-123');
    const fields = await mcpSignInFields(shop.environmentId);
    const beaOf = async () =>
      (
        (await admin.get('/v1/project/Shop')).body.members as {
          id: number;
          lockedUntil: string | null;
        }[]
      ).find((member) => member.id === bea)!;
    expect((await beaOf()).lockedUntil).toBeNull();
    for (let attempt = 0; attempt < LIMIT.failuresPerAccount; attempt += 1) {
      await signIn(fields, 'BEA@example.com', `guess ${attempt}`);
    }
    expect((await signIn(fields, 'bea@example.com', 'bea-own-password-123')).status).toBe(429);
    const lockedUntil = (await beaOf()).lockedUntil;
    expect(Date.parse(lockedUntil!)).toBeGreaterThan(Date.now());
    // Ada (not locked) shows as such.
    const members = (await admin.get('/v1/project/Shop')).body.members as {
      id: number;
      lockedUntil: string | null;
    }[];
    expect(members.find((member) => member.id === shop.userId)!.lockedUntil).toBeNull();

    // Only an admin of a project Bea is a member of may unlock her.
    expect((await as(sessionOf(bea)).delete(`/v1/project/Shop/members/${bea}/lock`)).status).toBe(
      403,
    );
    expect(
      (await as(sessionOf(other.userId)).delete(`/v1/project/Other/members/${bea}/lock`)).status,
    ).toBe(404);
    expect(
      (await as(sessionOf(other.userId)).delete(`/v1/project/Shop/members/${bea}/lock`)).status,
    ).toBe(404);
    expect((await admin.delete(`/v1/project/Shop/members/${bea}/lock`)).status).toBe(204);
    expect((await beaOf()).lockedUntil).toBeNull();
    // Unlocking again is harmless, and logs nothing more.
    expect((await admin.delete(`/v1/project/Shop/members/${bea}/lock`)).status).toBe(204);
    const logs = await server
      .knex('admin_logs')
      .where({ resource: 'user-project', type: 'update' })
      .whereRaw("previous_value->>'lockedUntil' IS NOT NULL")
      .select('user_id', 'previous_value', 'new_value');
    expect(logs).toEqual([
      expect.objectContaining({
        user_id: shop.userId,
        previous_value: expect.objectContaining({
          lockedUntil,
          user: expect.objectContaining({ email: 'bea@example.com' }),
        }),
        new_value: expect.objectContaining({ lockedUntil: null }),
      }),
    ]);
    // Bea signs in again.
    const signedIn = await signIn(fields, 'bea@example.com', 'bea-own-password-123');
    expect(signedIn.status).toBe(302);
  });

  it('limits one address trying many accounts', async () => {
    const fields = await mcpSignInFields(shop.environmentId);
    for (let attempt = 0; attempt < LIMIT.failuresPerAddress; attempt += 1) {
      await signIn(fields, `nobody${attempt}@example.com`, 'some password here');
    }
    expect((await signIn(fields, 'ada@example.com', ADA_PASSWORD)).status).toBe(429);
  });
});

describe('MCP OAuth dynamic registration', () => {
  const register = (body: object, address = '10.1.1.1') =>
    request(server.app).post('/oauth/register').set('x-forwarded-for', address).send(body);

  it('bounds redirect URIs and client names', async () => {
    const many = Array.from({ length: 11 }, (_, i) => `https://example.com/${i}`);
    expect((await register({ redirect_uris: many }, '10.2.0.1')).status).toBe(400);
    const long = `https://example.com/${'a'.repeat(2100)}`;
    expect((await register({ redirect_uris: [long] }, '10.2.0.2')).status).toBe(400);
    const named = await register(
      { redirect_uris: [CALLBACK], client_name: 'n'.repeat(201) },
      '10.2.0.3',
    );
    expect(named.body.error).toBe('invalid_client_metadata');
    const huge = await register({ redirect_uris: [CALLBACK], pad: 'x'.repeat(40_000) }, '10.2.0.4');
    expect(huge.status).toBe(413);
  });

  it('limits registrations per address and expires clients never used', async () => {
    await server.knex('mcp_oauth_clients').insert({
      client_id: 'mcp-stale',
      metadata: JSON.stringify({ client_id: 'mcp-stale' }),
      created_at: new Date(Date.now() - 31 * 86_400_000),
    });
    for (let attempt = 0; attempt < LIMIT.registrationsPerAddress; attempt += 1) {
      expect((await register({ redirect_uris: [CALLBACK] })).status).toBe(201);
    }
    const limited = await register({ redirect_uris: [CALLBACK] });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('too_many_requests');
    expect(
      await server.knex('mcp_oauth_clients').where({ client_id: 'mcp-stale' }).first(),
    ).toBeUndefined();
  });
});

describe('operator CLI', () => {
  it('sets a password read from stdin without printing it, and prints a one-time invite link', async () => {
    const io = recordingCliIo(db().url, ['operator-set-password']);
    expect(await runCli(['users', 'set-password', '--email', 'grace@example.com'], io)).toBe(0);
    expect([...io.stdout, ...io.stderr].join('\n')).not.toContain('operator-set-password');
    const fields = await mcpSignInFields(shop.environmentId);
    expect((await signIn(fields, 'grace@example.com', 'operator-set-password')).status).toBe(302);

    const invite = recordingCliIo(db().url);
    expect(
      await runCli(['users', 'invite', '--email', 'newcomer@example.com', '--create'], invite),
    ).toBe(0);
    const link = invite.stdout.at(-1)!;
    const token = /token=([\w-]+)/.exec(link)![1]!;
    const set = await request(server.app)
      .post('/account/password')
      .type('form')
      .send({ token, password: 'newcomer-own-password' });
    expect(set.status).toBe(200);
    expect(set.text).toContain('Your password is set');

    const short = recordingCliIo(db().url, ['short']);
    expect(await runCli(['users', 'set-password', '--email', 'grace@example.com'], short)).toBe(1);
    expect(short.stderr.join('\n')).toMatch(/at least|12 to 200/);
  });
});
