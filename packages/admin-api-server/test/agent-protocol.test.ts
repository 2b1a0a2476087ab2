import { createHash } from 'node:crypto';
import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { bootstrapProject, signSessionToken, type AdminApiServer } from '../src';
import { createEnvironmentWithSecret } from '../src/internals';
import { reportedActivityLog } from './helpers/agent-fixtures';
import { startTestServer, TEST_KEYS, tokenFor } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let secret: string;
let userId: number;

const schemaUpload = (hash: string, collections: string[]) => ({
  jsonapi: { version: '1.0' },
  meta: { liana: 'canopy', schemaFileHash: hash },
  data: collections.map((name) => ({
    type: 'collections',
    id: name,
    attributes: { name, fields: [{ field: 'id', type: 'Number', isPrimaryKey: true }] },
    relationships: { actions: { data: [{ type: 'actions', id: `${name}-0-ship` }] } },
  })),
  included: collections.map((name) => ({
    type: 'actions',
    id: `${name}-0-ship`,
    attributes: { name: 'Ship', type: 'single' },
  })),
});

beforeAll(async () => {
  server = await startTestServer(db());
  const result = await bootstrapProject(server.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'ada@example.com',
  });
  secret = result.secret!;
  userId = result.userId;
});

afterAll(async () => {
  await server.close();
});

const agent = (method: 'get' | 'post', path: string, key = secret) =>
  request(server.app)[method](path).set('forest-secret-key', key);

describe('env-secret authentication', () => {
  it('gives the same 401 for a missing, malformed or unknown secret', async () => {
    const answers = await Promise.all([
      request(server.app).get('/liana/v4/permissions/users'),
      agent('get', '/liana/v4/permissions/users', 'not-hex'),
      agent('get', '/liana/v4/permissions/users', 'f'.repeat(64)),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(answers[0]!.body);
      expect(answer.body.errors[0].detail).toMatch(/env secret is missing or not valid/);
    }
  });

  it('stores only a SHA-256 of the secret', async () => {
    const rows = await server.knex('environments').select('secret_hash');
    expect(rows).toEqual([{ secret_hash: createHash('sha256').update(secret).digest('hex') }]);
  });
});

describe('schema hash check and upload', () => {
  it('asks for an unknown schema, stores it, then knows its hash', async () => {
    await agent('post', '/forest/apimaps/hashcheck')
      .send({ schemaFileHash: 'h1' })
      .expect(200, { sendSchema: true });
    await agent('post', '/forest/apimaps')
      .send(schemaUpload('h1', ['orders']))
      .expect(200);
    await agent('post', '/forest/apimaps/hashcheck')
      .send({ schemaFileHash: 'h1' })
      .expect(200, { sendSchema: false });
    const project = await server.knex('projects').first('id', 'name', 'sso_enabled');
    const token = await tokenFor(server, project, userId, ['activity_logs:read']);
    const listed = await request(server.app)
      .get('/v1/project/Shop/environment/Production/collections')
      .set('authorization', `Bearer ${token}`)
      .expect(200);
    expect(listed.body).toEqual({
      data: [{ object: 'collection', name: 'orders', actions: ['Ship'] }],
    });
  });

  it('serves the stored schema to MCP servers at /liana/forest-schema', async () => {
    const project = await server.knex('projects').first('id');
    const other = await createEnvironmentWithSecret(server.knex, project.id, null, {
      name: 'Schemaless',
    });
    const none = await agent('get', '/liana/forest-schema', other.secret).expect(404);
    expect(none.body.errors[0].detail).toMatch(/No schema has been uploaded/);
    await server.knex('environments').where({ id: other.environment.id }).delete();
    await agent('post', '/forest/apimaps')
      .send(schemaUpload('h-schema', ['orders', 'customers']))
      .expect(200);
    const served = await agent('get', '/liana/forest-schema').expect(200);
    expect(served.body).toEqual(schemaUpload('h-schema', ['orders', 'customers']));
    await agent('get', '/liana/forest-schema', 'f'.repeat(64)).expect(401);
  });

  it("answers unknown agent-protocol routes in the agents' error shape", async () => {
    for (const path of ['/liana/v9/nothing', '/forest/nothing', '/api/nothing']) {
      const answer = await agent('get', path).expect(404);
      expect(answer.body).toEqual({
        errors: [{ detail: `No route of the platform protocol serves GET ${path}.`, status: 404 }],
      });
    }
    // Other paths keep the public API's shape.
    const publicApi = await request(server.app).get('/v1/nothing').expect(404);
    expect(publicApi.body).toMatchObject({ code: 'route_not_found' });
  });

  it('refuses an upload that does not validate, naming the bad path', async () => {
    const bad = schemaUpload('h2', ['orders']);
    (bad.data[0]!.attributes as { fields: unknown }).fields = 'nope';
    const answer = await agent('post', '/forest/apimaps').send(bad).expect(400);
    expect(answer.body.errors[0].detail).toBe(
      'Invalid schema upload: data[0].attributes.fields must be an array.',
    );
    const noHash = await agent('post', '/forest/apimaps')
      .send({ ...bad, meta: {} })
      .expect(400);
    expect(noHash.body.errors[0].detail).toMatch(/meta\.schemaFileHash must be a non-empty string/);
    const nul = schemaUpload('h-nul', ['orders']);
    nul.included[0]!.attributes.name = 'Sh\u0000ip';
    const refused = await agent('post', '/forest/apimaps').send(nul).expect(400);
    expect(refused.body.errors[0].detail).toMatch(/must not hold NUL/);
  });

  it('keeps one whole upload when the same environment uploads concurrently', async () => {
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        agent('post', '/forest/apimaps')
          .send(schemaUpload(`c${index}`, index % 2 ? ['orders', 'customers'] : ['orders']))
          .expect(200),
      ),
    );
    const environment = await server.knex('environments').first('schema_hash');
    const names = await server.knex('environment_collections').orderBy('name').pluck('name');
    const odd = Number(environment.schema_hash.slice(1)) % 2 === 1;
    expect(names).toEqual(odd ? ['customers', 'orders'] : ['orders']);
    await agent('post', '/forest/apimaps')
      .send(schemaUpload('h1', ['orders']))
      .expect(200);
  });
});

describe('permissions built from the model', () => {
  it('lists the members with role and tags, and the roles per right', async () => {
    const users = await agent('get', '/liana/v4/permissions/users').expect(200);
    const role = await server.knex('roles').first('id');
    expect(users.body).toEqual([
      {
        id: userId,
        email: 'ada@example.com',
        firstName: '',
        lastName: '',
        fullName: '',
        permissionLevel: 'admin',
        roleId: role.id,
        tags: {},
      },
    ]);
    const permissions = await agent('get', '/liana/v4/permissions/environment').expect(200);
    expect(permissions.body.collections.orders.collection.editEnabled).toEqual({
      roles: [role.id],
    });
    expect(permissions.body.collections.orders.actions.Ship.approvalRequired).toEqual({
      roles: [],
    });
  });

  it('answers a rendering per team, and 404 for a team of no project', async () => {
    const team = await server.knex('teams').first('id', 'name');
    await agent('get', `/liana/v4/permissions/renderings/${team.id}`).expect(200, {
      team: { id: team.id, name: team.name },
      collections: {},
      stats: [],
    });
    const missing = await agent('get', '/liana/v4/permissions/renderings/999999').expect(404);
    expect(missing.body.errors[0].detail).toMatch(/Rendering 999999 does not exist/);
    for (const id of ['2147483648', '99999999999', '1e3', '-1']) {
      await agent('get', `/liana/v4/permissions/renderings/${id}`).expect(404);
    }
  });

  it("serves a team's charts as its rendering's stats, edited through the management API", async () => {
    const team = await server.knex('teams').first('id', 'name');
    const session = signSessionToken(TEST_KEYS, {
      userId,
      sso: false,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const path = `/v1/project/Shop/teams/${encodeURIComponent(team.name)}/charts`;
    const charts = [
      { type: 'Value', sourceCollectionName: 'orders', aggregator: 'Count', filter: null },
      {
        type: 'Line',
        sourceCollectionName: 'orders',
        aggregator: 'Sum',
        aggregateFieldName: 'amount',
        groupByFieldName: 'created_at',
        timeRange: 'Week',
      },
    ];
    await request(server.app)
      .put(path)
      .set('authorization', `Bearer ${session}`)
      .send({ charts })
      .expect(200, { charts });
    await request(server.app)
      .get(path)
      .set('authorization', `Bearer ${session}`)
      .expect(200, { charts });
    const rendering = await agent('get', `/liana/v4/permissions/renderings/${team.id}`).expect(200);
    expect(rendering.body.stats).toEqual(charts);
    const refused = await request(server.app)
      .put(path)
      .set('authorization', `Bearer ${session}`)
      .send({ charts: [{ type: 'Donut' }, { type: 'Value', colour: 'red' }] })
      .expect(400);
    expect(refused.body.code).toBe('invalid_body');
    await request(server.app)
      .put('/v1/project/Shop/teams/Nobody/charts')
      .set('authorization', `Bearer ${session}`)
      .send({ charts: [] })
      .expect(404);
    await request(server.app).get(path).expect(401);
    await request(server.app)
      .put(path)
      .set('authorization', `Bearer ${session}`)
      .send({ charts: [] })
      .expect(200);
  });

  it('allows everything in a development environment', async () => {
    const project = await server.knex('projects').first('id');
    const { secret: dev } = await createEnvironmentWithSecret(server.knex, project.id, null, {
      name: 'Development',
      type: 'development',
    });
    await agent('get', '/liana/v4/permissions/environment', dev).expect(200, 'true');
  });

  it('answers the IP whitelist the management API set', async () => {
    const session = signSessionToken(TEST_KEYS, {
      userId,
      sso: false,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const rules = [
      { type: 0, ip: '203.0.113.10' },
      { type: 2, range: '10.0.0.0/8' },
    ];
    await request(server.app)
      .put('/v1/project/Shop/ip-whitelist')
      .set('authorization', `Bearer ${session}`)
      .send({ rules })
      .expect(200);
    const answer = await agent('get', '/liana/v1/ip-whitelist-rules').expect(200);
    expect(answer.body.data.attributes).toEqual({ use_ip_whitelist: true, rules });
    await request(server.app)
      .put('/v1/project/Shop/ip-whitelist')
      .set('authorization', `Bearer ${session}`)
      .send({ rules: [{ type: 3, ip: 'x' }] })
      .expect(400);
    await request(server.app)
      .put('/v1/project/Shop/ip-whitelist')
      .set('authorization', `Bearer ${session}`)
      .send({ rules: null })
      .expect(200);
  });

  it('answers the IP whitelist of the project', async () => {
    await agent('get', '/liana/v1/ip-whitelist-rules').expect(200, {
      data: {
        type: 'ip-whitelist-rules',
        id: String((await server.knex('projects').first('id')).id),
        attributes: { use_ip_whitelist: false, rules: [] },
      },
    });
  });
});

describe('activity-log ingestion', () => {
  const log = (id: string, overrides: Record<string, unknown> = {}) =>
    reportedActivityLog(id, userId, overrides);

  it('stores a batch once: a retried batch only counts duplicates', async () => {
    const batch = { logs: [log('a-1'), log('a-2'), log('a-1')] };
    await agent('post', '/liana/v1/activity-logs')
      .send(batch)
      .expect(200, { accepted: 2, duplicates: 1, rejected: [] });
    await agent('post', '/liana/v1/activity-logs')
      .send(batch)
      .expect(200, { accepted: 0, duplicates: 3, rejected: [] });
    const stored = await server.knex('activity_logs').select('action', 'record_ids', 'user_id');
    expect(stored).toEqual([
      { action: 'update', record_ids: ['7'], user_id: userId },
      { action: 'update', record_ids: ['7'], user_id: userId },
    ]);
  });

  it('stores a batch sent twice at the same moment once', async () => {
    const batch = { logs: [log('d-1'), log('d-2')] };
    const answers = await Promise.all(
      [1, 2, 3].map(() => agent('post', '/liana/v1/activity-logs').send(batch).expect(200)),
    );
    expect(answers.map((answer) => answer.body.accepted).sort()).toEqual([0, 0, 2]);
    const stored = await server
      .knex('ingested_activity_logs')
      .whereIn('external_id', ['d-1', 'd-2'])
      .count({ n: '*' });
    expect(stored).toEqual([{ n: '2' }]);
  });

  it('stores the good logs of a batch and refuses the bad ones, saying which and why', async () => {
    const answer = await agent('post', '/liana/v1/activity-logs')
      .send({
        logs: [
          log('b-1'),
          log('b-2', { action: 'fly' }),
          'not a log',
          log('b-4', { createdAt: '2026-06-30T23:59:60Z' }),
          log('b-5', { userId: 3000000000 }),
          log('b-6', { recordIds: ['a\u0000b'] }),
          log('b-7'),
        ],
      })
      .expect(200);
    expect(answer.body).toEqual({
      accepted: 2,
      duplicates: 0,
      rejected: [
        {
          index: 1,
          id: 'b-2',
          reason: 'logs[1].action must be one of the activity-log actions (got "fly")',
        },
        { index: 2, id: null, reason: 'logs[2] must be an object' },
        {
          index: 3,
          id: 'b-4',
          reason: 'logs[3].createdAt must be an ISO 8601 date-time between the years 0 and 9999',
        },
        { index: 4, id: 'b-5', reason: 'logs[4].userId must be a positive integer' },
        { index: 5, id: 'b-6', reason: 'logs[5].recordIds must be an array of strings' },
      ],
    });
    expect(await server.knex('activity_logs').count({ n: '*' })).toEqual([{ n: '6' }]);
    // The agent resends the refused batch: the good logs are duplicates, the bad still refused.
    const resent = await agent('post', '/liana/v1/activity-logs')
      .send({ logs: [log('b-1'), log('b-2', { action: 'fly' }), log('b-7')] })
      .expect(200);
    expect(resent.body).toMatchObject({ accepted: 0, duplicates: 2 });
    expect(resent.body.rejected).toHaveLength(1);
  });

  it("refuses a body that is not a batch whole, in the agents' error shape", async () => {
    const answer = await agent('post', '/liana/v1/activity-logs').send({ log: [] }).expect(400);
    expect(answer.body).toEqual({
      errors: [
        { detail: 'Invalid activity-log batch: the body must be {"logs": [...]}.', status: 400 },
      ],
    });
    const unreadable = await agent('post', '/liana/v1/activity-logs')
      .set('content-type', 'application/json')
      .send('{"logs": [')
      .expect(400);
    expect(unreadable.body.errors[0]).toMatchObject({ status: 400 });
    const encoded = await agent('post', '/liana/v1/activity-logs')
      .set('content-type', 'application/json')
      .set('content-encoding', 'foo')
      .send('{"logs": []}')
      .expect(415);
    expect(encoded.body).toEqual({
      errors: [
        {
          detail:
            'The request body must be UTF-8 JSON (or a UTF-8 form), sent without Content-Encoding or with gzip, deflate or br.',
          status: 415,
        },
      ],
    });
  });

  it("keeps the agent's id, inbox and workflow, and takes logs without a label", async () => {
    await agent('post', '/liana/v1/activity-logs')
      .send({
        logs: [
          log('agent-log-42', {
            action: 'completeWorkflowStep',
            label: undefined,
            inbox: { name: 'Ids check' },
            workflow: { name: 'KYC Process', runId: '26', stepName: 'Review' },
          }),
        ],
      })
      .expect(200, { accepted: 1, duplicates: 0, rejected: [] });
    const project = await server.knex('projects').first('id', 'name', 'sso_enabled');
    const token = await tokenFor(server, project, userId, ['activity_logs:read']);
    const listed = await request(server.app)
      .get('/v1/project/Shop/environment/Production/activity-logs?action=completeWorkflowStep')
      .set('authorization', `Bearer ${token}`)
      .expect(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        id: 'agent-log-42',
        action: 'completeWorkflowStep',
        inbox: { object: 'inbox', name: 'Ids check' },
        workflow: { object: 'workflow', name: 'KYC Process', runId: '26', stepName: 'Review' },
      }),
    ]);
    expect(listed.body.data[0]).not.toHaveProperty('label');
  });

  it('rejects only the logs of users outside the project, so the agent queue moves on', async () => {
    await agent('post', '/liana/v1/activity-logs')
      .send({ logs: [log('c-1'), log('c-2', { userId: 424242 })] })
      .expect(200, {
        accepted: 1,
        duplicates: 0,
        rejected: [{ index: 1, id: 'c-2', reason: 'user 424242 is not a member of this project' }],
      });
    expect(await server.knex('activity_logs').count({ n: '*' })).toEqual([{ n: '8' }]);
  });
});
