import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { insertActivityLogs, runCli, signSessionToken, type AdminApiServer } from '../src';
import { startTestServer, TEST_KEYS, recordingCliIo } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let session: string;

const io = () => recordingCliIo(db().url);

const bootstrapArgs = [
  'bootstrap',
  '--project',
  'Shop',
  '--environment',
  'Production',
  '--admin-email',
  'ada@example.com',
];

beforeAll(async () => {
  server = await startTestServer(db());
});

afterAll(async () => {
  await server.close();
});

const as = (token: string) => ({
  get: (path: string) => request(server.app).get(path).set('authorization', `Bearer ${token}`),
  post: (path: string, body: object) =>
    request(server.app).post(path).set('authorization', `Bearer ${token}`).send(body),
  patch: (path: string, body: object) =>
    request(server.app).patch(path).set('authorization', `Bearer ${token}`).send(body),
  delete: (path: string) =>
    request(server.app).delete(path).set('authorization', `Bearer ${token}`),
});

describe('canopy-admin-api bootstrap', () => {
  it('creates project, environment and Admin, printing the env secret once', async () => {
    const first = io();
    expect(await runCli(bootstrapArgs, first)).toBe(0);
    expect(first.stderr).toEqual([]);
    const secret = first.stdout.at(-1)!;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await request(server.app)
      .post('/forest/apimaps/hashcheck')
      .set('forest-secret-key', secret)
      .send({ schemaFileHash: 'x' })
      .expect(200, { sendSchema: true });

    const again = io();
    expect(await runCli(bootstrapArgs, again)).toBe(0);
    expect(again.stdout).toEqual([
      'Already exists: project "Shop".',
      'Already exists: user ada@example.com.',
      "Already exists: ada@example.com's membership (admin).",
      'Already exists: environment "Production" (its env secret is not shown again).',
      'Nothing new to create; use the management API to rotate the env secret.',
    ]);
    expect(again.stdout.join('\n')).not.toContain(secret);
    const roles = await server.knex('roles').pluck('name');
    expect(roles).toEqual(['Admin']);
  });

  it('prints a session token that the management API accepts', async () => {
    const out = io();
    expect(await runCli(['session', '--user', 'ada@example.com'], out)).toBe(0);
    session = out.stdout.at(-1)!;
    const project = await as(session).get('/v1/project/Shop').expect(200);
    expect(project.body).toMatchObject({
      name: 'Shop',
      ssoEnabled: false,
      environments: [{ name: 'Production', type: 'production', collections: [] }],
      members: [{ email: 'ada@example.com', permissionLevel: 'admin', roleName: 'Admin' }],
      roles: [{ name: 'Admin', rights: {} }],
      teams: [{ name: 'Operations', scopes: {} }],
      ipWhitelist: null,
    });
  });

  it('turns the SSO requirement on and off', async () => {
    await as(session).patch('/v1/project/Shop', { ssoEnabled: true }).expect(200);
    expect((await server.knex('projects').where({ name: 'Shop' }).first()).sso_enabled).toBe(true);
    await as(session).patch('/v1/project/Shop', { ssoEnabled: false }).expect(200);
    const bad = await as(session).patch('/v1/project/Shop', { sso: true }).expect(400);
    expect(bad.body.code).toBe('invalid_body');
  });

  it('refuses a malformed email', async () => {
    const out = io();
    expect(await runCli([...bootstrapArgs.slice(0, -1), 'ada'], out)).toBe(1);
    expect(out.stderr).toEqual([
      'Error: --admin-email must be an email address such as ada@example.com; got "ada".',
    ]);
  });
});

describe('canopy-admin-api bootstrap --environment-type and --version', () => {
  it('creates a development environment when asked, and refuses an unknown type', async () => {
    const dev = io();
    const args = ['bootstrap', '--project', 'Lab', '--environment', 'Local'];
    const withType = [...args, '--admin-email', 'lab@example.com', '--environment-type'];
    expect(await runCli([...withType, 'development'], dev)).toBe(0);
    expect(dev.stdout.join('\n')).toContain('environment Local (development)');
    const row = await server.knex('environments').where({ name: 'Local' }).first('type');
    expect(row.type).toBe('development');

    const again = io();
    expect(await runCli([...withType, 'production'], again)).toBe(0);
    expect(again.stdout).toContain(
      'Already exists: environment "Local" is of type development; its type is not changed.',
    );

    const wrong = io();
    expect(await runCli([...withType, 'staging'], wrong)).not.toBe(0);
    expect(wrong.stderr.join('\n')).toMatch(
      /staging.*invalid|Allowed choices are development, production/,
    );
  });

  it('prints the package version on --version', async () => {
    const out = io();
    expect(await runCli(['--version'], out)).toBe(0);
    const { version } = await import('../package.json');
    expect(out.stdout).toEqual([version]);
  });
});

describe('the management API', () => {
  const adminLogs = () =>
    server
      .knex('admin_logs')
      .orderBy('id')
      .select('type', 'resource', 'initiator', 'previous_value', 'new_value');

  it('writes an admin log with previous and new values for each change', async () => {
    const before = (await adminLogs()).length;
    const api = as(session);
    await api.post('/v1/project/Shop/teams', { name: 'Support' }).expect(201);
    await api.post('/v1/project/Shop/roles', { name: 'Agent' }).expect(201);
    const member = await api
      .post('/v1/project/Shop/members', {
        email: 'bob@example.com',
        firstName: 'Bob',
        lastName: 'Stone',
        permissionLevel: 'user',
        roleName: 'Agent',
        teamNames: ['Support'],
        tags: { region: 'EU' },
      })
      .expect(201);
    expect(member.body).toMatchObject({
      email: 'bob@example.com',
      roleName: 'Agent',
      teamNames: ['Support'],
      tags: { region: 'EU' },
    });
    await api
      .patch(`/v1/project/Shop/members/${member.body.id}`, { permissionLevel: 'editor' })
      .expect(200);
    await api.patch('/v1/project/Shop/teams/Support', { name: 'Helpdesk' }).expect(200);
    await api.delete(`/v1/project/Shop/members/${member.body.id}`).expect(204);
    const created = await api
      .post('/v1/project/Shop/environments', { name: 'Staging', type: 'development' })
      .expect(201);
    expect(created.headers['cache-control']).toBe('no-store');
    expect(created.body.secret).toMatch(/^[0-9a-f]{64}$/);
    await api.delete('/v1/project/Shop/environments/Staging').expect(204);

    const bob = {
      user: { object: 'user', email: 'bob@example.com', id: member.body.id, username: 'Bob Stone' },
      permissionLevel: 'user',
      tags: [{ key: 'region', value: 'EU' }],
      role: { object: 'role', name: 'Agent' },
      teams: [{ object: 'team', name: 'Support' }],
    };
    const logs = (await adminLogs()).slice(before);
    expect(logs).toEqual([
      expect.objectContaining({ type: 'add', resource: 'team', new_value: { name: 'Support' } }),
      expect.objectContaining({ type: 'add', resource: 'role', new_value: { name: 'Agent' } }),
      expect.objectContaining({ type: 'add', resource: 'user-project', new_value: bob }),
      expect.objectContaining({
        type: 'update',
        resource: 'user-project',
        previous_value: bob,
        new_value: { ...bob, permissionLevel: 'editor' },
      }),
      expect.objectContaining({
        type: 'update',
        resource: 'team',
        previous_value: { name: 'Support' },
        new_value: { name: 'Helpdesk' },
      }),
      expect.objectContaining({
        type: 'remove',
        resource: 'user-project',
        previous_value: {
          ...bob,
          permissionLevel: 'editor',
          teams: [{ object: 'team', name: 'Helpdesk' }],
        },
      }),
      expect.objectContaining({
        type: 'add',
        resource: 'environment',
        new_value: { name: 'Staging', codeCustomizationVersion: 0 },
      }),
      expect.objectContaining({ type: 'remove', resource: 'environment' }),
    ]);
    expect(logs.every((log) => log.initiator === 'administrator')).toBe(true);
  });

  it('refuses unknown collections, roles and teams by name, writing no admin log', async () => {
    const api = as(session);
    const before = (await adminLogs()).length;
    const collection = await api
      .patch('/v1/project/Shop/roles/Agent', {
        rights: { collections: { invoices: { readEnabled: false } } },
      })
      .expect(400);
    expect(collection.body).toEqual({
      code: 'collection_not_found',
      message:
        'No agent of this project declared a collection named "invoices"; start an agent on one of its environments first.',
    });
    const role = await api
      .post('/v1/project/Shop/members', {
        email: 'cy@example.com',
        permissionLevel: 'user',
        roleName: 'Ghost',
      })
      .expect(404);
    expect(role.body).toEqual({
      code: 'role_not_found',
      message: 'Project has no role named "Ghost".',
    });
    const team = await api
      .post('/v1/project/Shop/members', {
        email: 'cy@example.com',
        permissionLevel: 'user',
        teamNames: ['Nowhere'],
      })
      .expect(404);
    expect(team.body.code).toBe('team_not_found');
    await api.patch('/v1/project/Shop/teams/Ghosts', { scopes: {} }).expect(404);
    const body = await api
      .post('/v1/project/Shop/roles', { name: 'X', rights: { collections: { a: { fly: true } } } })
      .expect(400);
    expect(body.body.message).toMatch(/rights\.collections\.a\.fly/);
    expect((await adminLogs()).length).toBe(before);
    expect(await server.knex('users').where({ email: 'cy@example.com' }).first()).toBeUndefined();
  });

  it('keeps role and team names unique, names the unknown ones, and keeps teams that logs refer to', async () => {
    const api = as(session);
    const before = (await adminLogs()).length;
    const role = await api
      .post('/v1/project/Shop/roles', { name: 'Auditor', rights: { collections: {} } })
      .expect(201);
    expect(role.body).toEqual({
      id: expect.any(Number),
      name: 'Auditor',
      rights: { collections: {} },
    });
    const taken = await api.post('/v1/project/Shop/roles', { name: 'Auditor' }).expect(409);
    expect(taken.body).toEqual({
      code: 'conflict',
      message: 'A role named "Auditor" already exists.',
    });
    const renamed = await api
      .patch('/v1/project/Shop/roles/Auditor', { name: 'Reviewer' })
      .expect(200);
    expect(renamed.body).toEqual({
      id: role.body.id,
      name: 'Reviewer',
      rights: { collections: {} },
    });
    const ghost = await api.delete('/v1/project/Shop/roles/Auditor').expect(404);
    expect(ghost.body).toEqual({
      code: 'role_not_found',
      message: 'Project has no role named "Auditor".',
    });
    await api.delete('/v1/project/Shop/roles/Reviewer').expect(204);

    const team = await api.post('/v1/project/Shop/teams', { name: 'Night shift' }).expect(201);
    expect(team.body).toEqual({ id: expect.any(Number), name: 'Night shift', scopes: {} });
    const teamTaken = await api.post('/v1/project/Shop/teams', { name: 'Night shift' }).expect(409);
    expect(teamTaken.body.message).toBe('A team named "Night shift" already exists.');
    const project = await server.knex('projects').where({ name: 'Shop' }).first('id');
    const environment = await server
      .knex('environments')
      .where({ project_id: project.id })
      .first('id');
    const user = await server.knex('users').where({ email: 'ada@example.com' }).first('id');
    await insertActivityLogs(server.knex, project.id, [
      {
        environmentId: environment.id,
        userId: user.id,
        teamId: team.body.id,
        type: 'read',
        action: 'index',
        collectionName: 'orders',
      },
    ]);
    const kept = await api.delete('/v1/project/Shop/teams/Night%20shift').expect(409);
    expect(kept.body).toEqual({
      code: 'conflict',
      message: 'Team "Night shift" is referenced by activity logs or notes and cannot be removed.',
    });
    expect(await server.knex('teams').where({ id: team.body.id }).first('name')).toEqual({
      name: 'Night shift',
    });

    const logs = (await adminLogs()).slice(before);
    expect(logs.map(({ type, resource }) => `${type} ${resource}`)).toEqual([
      'add role',
      'update role',
      'remove role',
      'add team',
    ]);
    expect(logs[1]).toMatchObject({
      previous_value: { name: 'Auditor' },
      new_value: { name: 'Reviewer' },
    });
  });

  it('stores action conditions on a role and refuses a malformed condition tree', async () => {
    const api = as(session);
    // What an agent declares when it sends its schema.
    const production = await server.knex('environments').where({ name: 'Production' }).first('id');
    await server
      .knex('environment_collections')
      .insert({
        environment_id: production.id,
        name: 'orders',
        action_names: JSON.stringify(['Refund order']),
      })
      .onConflict(['environment_id', 'name'])
      .merge();
    const condition = {
      aggregator: 'and',
      conditions: [{ field: 'amount', operator: 'less_than', value: 500, source: 'data' }],
    };
    const created = await api
      .post('/v1/project/Shop/roles', {
        name: 'Refunders',
        rights: {
          actions: {
            orders: {
              'Refund order': {
                triggerEnabled: true,
                triggerConditions: condition,
                approvalRequired: true,
                approvalRequiredConditions: null,
              },
            },
          },
        },
      })
      .expect(201);
    expect(created.body.rights.actions.orders['Refund order'].triggerConditions).toEqual(condition);
    const before = await server.knex('admin_logs').count({ n: '*' }).first();
    const refused = await api
      .patch('/v1/project/Shop/roles/Refunders', {
        rights: {
          actions: {
            orders: {
              'Refund order': { triggerConditions: { aggregator: 'xor', conditions: [] } },
            },
          },
        },
      })
      .expect(400);
    expect(refused.body.code).toBe('invalid_body');
    expect(refused.body.message).toContain('triggerConditions');
    const leafless = await api
      .patch('/v1/project/Shop/roles/Refunders', {
        rights: {
          actions: {
            orders: { 'Refund order': { userApprovalConditions: { operator: 'equal' } } },
          },
        },
      })
      .expect(400);
    expect(leafless.body.code).toBe('invalid_body');
    expect(await server.knex('admin_logs').count({ n: '*' }).first()).toEqual(before);
    const stored = await api.get('/v1/project/Shop').expect(200);
    expect(
      stored.body.roles.find((role: { name: string }) => role.name === 'Refunders').rights.actions
        .orders['Refund order'],
    ).toEqual({
      triggerEnabled: true,
      triggerConditions: condition,
      approvalRequired: true,
      approvalRequiredConditions: null,
    });
  });

  it('lets only admins of the project manage it', async () => {
    const api = as(session);
    const member = await api
      .post('/v1/project/Shop/members', { email: 'dan@example.com', permissionLevel: 'editor' })
      .expect(201);
    const dan = signSessionToken(TEST_KEYS, {
      userId: member.body.id,
      sso: false,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const refused = await as(dan).post('/v1/project/Shop/roles', { name: 'Mine' }).expect(403);
    expect(refused.body).toEqual({
      error: 'forbidden',
      message: 'Only an admin of project "Shop" can manage it.',
    });
    await request(server.app).get('/v1/project/Shop').expect(401);
    await as(dan).post('/v1/projects', { name: 'Dan shop' }).expect(201);
    await as(dan).get('/v1/project/Dan%20shop').expect(200);
  });
});
