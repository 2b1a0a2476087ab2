import { useTestDatabase } from '@canopy/test-databases';
import {
  createProject,
  addProjectMember,
  runCli,
  signSessionToken,
  type AdminApiServer,
} from '../src';
import { apiClient, type ApiClient } from './helpers/api-client';
import { seed, startTestServer, TEST_KEYS, type Seed, recordingCliIo } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let api: ApiClient;
let s: Seed;
const session = (userId: number, sso = false) =>
  signSessionToken(TEST_KEYS, { userId, sso, expiresAt: new Date(Date.now() + 3_600_000) });
const tokensUrl = () => `/v1/project/${s.project.name}/application-tokens`;
const activity = () => `/v1/project/${s.project.name}/environment/Production/activity-logs`;

beforeAll(async () => {
  server = await startTestServer(db());
  api = apiClient(server.app);
  s = await seed(server);
});
afterAll(() => server.close());

describe('REST token management', () => {
  it('creates a token shown once, lists it without the token, and revokes it', async () => {
    const created = await api.post(tokensUrl(), {
      token: session(s.admin.id),
      body: { name: 'SIEM', scopes: ['activity_logs:read'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'applicationToken',
      name: 'SIEM',
      scopes: ['activity_logs:read'],
      lastUsedAt: null,
    });
    expect(created.headers['cache-control']).toBe('no-store');
    const token: string = created.body.token;
    expect((await api.get(activity(), { token })).status).toBe(200);

    const listed = await api.get(tokensUrl(), { token: session(s.admin.id) });
    expect(listed.status).toBe(200);
    const entry = listed.body.data.find((item: { id: number }) => item.id === created.body.id);
    expect(entry).toMatchObject({
      name: 'SIEM',
      scopes: ['activity_logs:read'],
      lastUsedAt: expect.any(String),
      expiresAt: created.body.expiresAt,
    });
    expect(JSON.stringify(listed.body)).not.toContain(token);

    expect(
      (await api.delete(`${tokensUrl()}/${created.body.id}`, { token: session(s.admin.id) }))
        .status,
    ).toBe(204);
    const after = await api.get(activity(), { token });
    expect(after.status).toBe(401);
    expect(after.body.message).toContain('revoked');
    expect(
      (await api.delete(`${tokensUrl()}/${created.body.id}`, { token: session(s.admin.id) }))
        .status,
    ).toBe(404);
  });

  it('refuses non-admins, bad bodies, past expiries and application tokens as sessions', async () => {
    const editor = await api.post(tokensUrl(), {
      token: session(s.editor.id),
      body: { name: 'x', scopes: ['all'] },
    });
    expect(editor.status).toBe(403);
    expect(editor.body).toEqual({
      error: 'forbidden',
      message: expect.stringContaining('Admin role'),
    });
    expect((await api.get(tokensUrl(), { token: session(s.editor.id) })).status).toBe(403);
    const badScope = await api.post(tokensUrl(), {
      token: session(s.admin.id),
      body: { name: 'x', scopes: ['notes:delete'] },
    });
    expect(badScope.status).toBe(400);
    expect(badScope.body.message).toContain('"scopes.0"');
    const past = await api.post(tokensUrl(), {
      token: session(s.admin.id),
      body: { name: 'x', scopes: ['all'], expiresAt: '2020-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(400);
    const wrongKind = await api.get(tokensUrl(), { token: s.tokens.all });
    expect(wrongKind.status).toBe(401);
    expect(wrongKind.body.message).toContain('not a user session token');
  });

  it('on an SSO project, creates tokens only from an SSO session', async () => {
    const sso = await createProject(server.knex, {
      name: `SsoRest${Date.now()}`,
      ssoEnabled: true,
    });
    await addProjectMember(server.knex, {
      projectId: sso.id,
      userId: s.admin.id,
      permissionLevel: 'admin',
    });
    const url = `/v1/project/${sso.name}/application-tokens`;
    const plain = await api.post(url, {
      token: session(s.admin.id, false),
      body: { name: 'x', scopes: ['all'] },
    });
    expect(plain.status).toBe(403);
    expect(plain.body.message).toContain('SSO');
    const viaSso = await api.post(url, {
      token: session(s.admin.id, true),
      body: { name: 'x', scopes: ['all'] },
    });
    expect(viaSso.status).toBe(201);
  });
});

describe('canopy-admin-api tokens', () => {
  const io = () => recordingCliIo(db().url);

  it('creates a token (alone on the last line), lists it, and revokes it', async () => {
    const create = io();
    const code = await runCli(
      [
        'tokens',
        'create',
        '--project',
        s.project.name,
        '--user',
        s.admin.email,
        '--name',
        'cli token',
        '--scopes',
        'notes:read,notes:write',
      ],
      create,
    );
    expect(create.stderr).toEqual([]);
    expect(code).toBe(0);
    const token = create.stdout.at(-1)!;
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const notes = `/v1/project/${s.project.name}/environment/Production/notes`;
    expect((await api.get(notes, { token })).status).toBe(200);

    const list = io();
    expect(await runCli(['tokens', 'list', '--project', s.project.name], list)).toBe(0);
    const line = list.stdout.find((row) => row.includes('cli token'))!;
    expect(line).toContain('notes:read,notes:write');
    expect(line).toContain(s.admin.email);
    expect(list.stdout.join('\n')).not.toContain(token);
    const id = line.split('\t')[0]!;

    const revoke = io();
    expect(await runCli(['tokens', 'revoke', id], revoke)).toBe(0);
    expect(revoke.stdout).toEqual([`Revoked token ${id}.`]);
    expect((await api.get(notes, { token })).status).toBe(401);
  });

  it.each([
    [
      [
        'tokens',
        'create',
        '--project',
        'Nope',
        '--user',
        'a@b.c',
        '--name',
        'n',
        '--scopes',
        'all',
      ],
      'No project is named "Nope"',
    ],
    [
      [
        'tokens',
        'create',
        '--project',
        'PROJECT',
        '--user',
        'ghost@example.com',
        '--name',
        'n',
        '--scopes',
        'all',
      ],
      'No user has the email',
    ],
    [
      [
        'tokens',
        'create',
        '--project',
        'PROJECT',
        '--user',
        'EDITOR',
        '--name',
        'n',
        '--scopes',
        'all',
      ],
      'Admin role',
    ],
    [
      [
        'tokens',
        'create',
        '--project',
        'PROJECT',
        '--user',
        'ADMIN',
        '--name',
        'n',
        '--scopes',
        'all,fly',
      ],
      'Unknown scope(s) fly',
    ],
    [['tokens', 'revoke', 'abc'], 'positive integer'],
    [['tokens', 'revoke', '999999'], 'No live token has id 999999'],
  ])('explains %j', async (argv, message) => {
    const run = io();
    const resolved = argv.map((arg) =>
      arg === 'PROJECT'
        ? s.project.name
        : arg === 'EDITOR'
          ? s.editor.email
          : arg === 'ADMIN'
            ? s.admin.email
            : arg,
    );
    expect(await runCli(resolved, run)).toBe(1);
    expect(run.stderr.join('\n')).toContain(message);
  });

  it('names the missing signing keys without leaking anything', async () => {
    const run = io();
    run.env = { DATABASE_URL: db().url };
    expect(
      await runCli(
        [
          'tokens',
          'create',
          '--project',
          s.project.name,
          '--user',
          s.admin.email,
          '--name',
          'n',
          '--scopes',
          'all',
        ],
        run,
      ),
    ).toBe(1);
    expect(run.stderr.join('\n')).toContain('CANOPY_TOKEN_SIGNING_KEYS is required');
  });
});
