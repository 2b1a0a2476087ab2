import jwt from 'jsonwebtoken';
import { useTestDatabase } from '@canopy/test-databases';
import {
  addProjectMember,
  createEnvironment,
  createProject,
  type AdminApiServer,
  type Scope,
} from '../src';
import { apiClient, type ApiClient } from './helpers/api-client';
import { seed, startTestServer, TEST_KEYS, tokenFor, type Seed } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let api: ApiClient;
let s: Seed;
let other: Seed;

beforeAll(async () => {
  server = await startTestServer(db());
  api = apiClient(server.app);
  s = await seed(server);
  other = await seed(server);
});
afterAll(() => server.close());

const activity = () => `/v1/project/${s.project.name}/environment/Production/activity-logs`;

describe('scope × endpoint', () => {
  const endpoints: [string, () => string, Scope][] = [
    ['activity logs', () => activity(), 'activity_logs:read'],
    ['activity-log export', () => `${activity()}/export`, 'activity_logs:read'],
    ['activity-log integrity', () => `${activity()}/integrity`, 'activity_logs:read'],
    ['admin logs', () => `/v1/project/${s.project.name}/admin-logs`, 'admin_logs:read'],
    ['notes', () => `/v1/project/${s.project.name}/environment/Production/notes`, 'notes:read'],
  ];
  const scopes: Scope[] = [
    'activity_logs:read',
    'admin_logs:read',
    'notes:read',
    'notes:write',
    'all',
  ];

  for (const [name, url, needed] of endpoints) {
    for (const scope of scopes) {
      const allowed = scope === needed || scope === 'all';
      it(`${name} with ${scope} → ${allowed ? 200 : 403}`, async () => {
        const res = await api.get(url(), { token: s.tokens[scope] });
        expect(res.status).toBe(allowed ? 200 : 403);
        if (!allowed) {
          expect(res.body).toEqual({
            error: 'forbidden',
            message: expect.stringContaining(needed),
          });
        }
      });
    }
  }

  it('note writes need notes:write (notes:read is not enough)', async () => {
    const url = `/v1/project/${s.project.name}/environment/Production/notes`;
    const body = { title: 't', recordId: '1', collectionName: 'orders', message: '<p>hi</p>' };
    expect((await api.post(url, { token: s.tokens['notes:read'], body })).status).toBe(403);
    expect((await api.post(url, { token: s.tokens['notes:write'], body })).status).toBe(201);
    expect((await api.post(url, { token: s.tokens.all, body })).status).toBe(201);
  });
});

describe('token cases', () => {
  const expect401 = async (token: string | undefined, message: RegExp, header?: string) => {
    const res = await api.get(activity(), {
      token,
      headers: header === undefined ? {} : { Authorization: header },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'unauthorized', message: expect.stringMatching(message) });
    expect(res.body.message).not.toContain(token ?? '\u0000');
  };

  it('missing token', () => expect401(undefined, /Missing bearer token/));
  it('not a bearer scheme', () =>
    expect401(undefined, /Missing bearer token/, 'Basic dXNlcjpwYXNz'));
  it('malformed token', () => expect401('not.a.jwt', /malformed/));

  it('bad signature', async () => {
    const [header, payload] = s.tokens.all.split('.');
    const forged = jwt.sign(
      jwt.decode(s.tokens.all) as object,
      'another-secret-another-secret-00000',
      {
        algorithm: 'HS256',
        keyid: TEST_KEYS[0]!.id,
        noTimestamp: true,
      },
    );
    await expect401(
      `${header}.${payload}.${forged.split('.')[2]}`,
      /signature or claims are invalid/,
    );
  });

  it('alg: none', async () => {
    const claims = jwt.decode(s.tokens.all) as Record<string, unknown>;
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'none', typ: 'JWT', kid: TEST_KEYS[0]!.id })}.${encode(claims)}.`;
    await expect401(unsigned, /must be signed with HS256/);
  });

  it('expired token says it expired', async () => {
    const token = await tokenFor(
      server,
      s.project,
      s.admin.id,
      ['all'],
      new Date(Date.now() - 1000),
    );
    await expect401(token, /expired at \d{4}-\d\d-\d\dT/);
  });

  it('revoked token fails on the very next request', async () => {
    const token = await tokenFor(server, s.project, s.admin.id, ['all']);
    expect((await api.get(activity(), { token })).status).toBe(200);
    const { jti } = jwt.decode(token) as { jti: string };
    const { createHash } = await import('node:crypto');
    await server
      .knex('application_tokens')
      .where({ token_id_hash: createHash('sha256').update(jti).digest('hex') })
      .update({ revoked_at: server.knex.fn.now() });
    await expect401(token, /revoked/);
  });

  it("a session token reads the logs as its user (the console): an admin's is accepted, another project's member gets the unknown-project 404", async () => {
    const { signSessionToken } = await import('../src');
    const sessionOf = (userId: number) =>
      signSessionToken(TEST_KEYS, { userId, sso: false, expiresAt: new Date(Date.now() + 60_000) });
    expect((await api.get(activity(), { token: sessionOf(s.admin.id) })).status).toBe(200);
    const outsider = await api.get(activity(), { token: sessionOf(other.admin.id) });
    expect([outsider.status, outsider.body.code ?? outsider.body.error]).toEqual([
      404,
      'project_not_found',
    ]);
  });

  it('answers a token of another project exactly as an unknown project (no probing of names)', async () => {
    const res = await api.get(activity(), { token: other.tokens.all });
    const unknown = await api.get(activity().replace(s.project.name, 'NoSuchProject'), {
      token: other.tokens.all,
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'project_not_found',
      message: expect.stringContaining(`"${s.project.name}"`),
    });
    expect([unknown.status, unknown.body.code]).toEqual([res.status, res.body.code]);
    expect(unknown.body.message.replace('NoSuchProject', s.project.name)).toBe(res.body.message);
  });

  it('a non-admin cannot create a token, and a demoted creator’s token stops working', async () => {
    await expect(tokenFor(server, s.project, s.editor.id, ['all'])).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('Admin role'),
    });
    const token = await tokenFor(server, s.project, s.admin.id, ['all']);
    await addProjectMember(server.knex, {
      projectId: s.project.id,
      userId: s.admin.id,
      permissionLevel: 'editor',
    });
    try {
      const res = await api.get(activity(), { token });
      expect(res.status).toBe(403);
      expect(res.body.message).toContain('no longer holds the Admin role');
    } finally {
      await addProjectMember(server.knex, {
        projectId: s.project.id,
        userId: s.admin.id,
        permissionLevel: 'admin',
      });
    }
  });

  it('an SSO project only accepts tokens created from an SSO session', async () => {
    const sso = await createProject(server.knex, { name: `Sso${Date.now()}`, ssoEnabled: true });
    await addProjectMember(server.knex, {
      projectId: sso.id,
      userId: s.admin.id,
      permissionLevel: 'admin',
    });
    await expect(tokenFor(server, sso, s.admin.id, ['all'])).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('SSO'),
    });
  });

  it('refuses a token created without SSO once its project switches to SSO', async () => {
    const project = await createProject(server.knex, { name: `Switch${Date.now()}` });
    await createEnvironment(server.knex, { projectId: project.id, name: 'Production' });
    await addProjectMember(server.knex, {
      projectId: project.id,
      userId: s.admin.id,
      permissionLevel: 'admin',
    });
    const token = await tokenFor(server, project, s.admin.id, ['all']);
    const url = `/v1/project/${project.name}/environment/Production/notes`;
    expect((await api.get(url, { token })).status).toBe(200);
    await server.knex('projects').where({ id: project.id }).update({ sso_enabled: true });
    const res = await api.get(url, { token });
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('uses SSO');
  });

  it('stores only a hash of the token id and never the token', async () => {
    const rows = await server.knex('application_tokens').where({ project_id: s.project.id });
    const dump = JSON.stringify(rows);
    const { jti } = jwt.decode(s.tokens.all) as { jti: string };
    expect(dump).not.toContain(jti);
    expect(dump).not.toContain(s.tokens.all);
  });

  it('records last use', async () => {
    const token = await tokenFor(server, s.project, s.admin.id, ['all']);
    const { jti } = jwt.decode(token) as { jti: string };
    const { createHash } = await import('node:crypto');
    const where = { token_id_hash: createHash('sha256').update(jti).digest('hex') };
    expect((await server.knex('application_tokens').where(where).first()).last_used_at).toBeNull();
    await api.get(activity(), { token });
    expect(
      (await server.knex('application_tokens').where(where).first()).last_used_at,
    ).toBeInstanceOf(Date);
  });
});
