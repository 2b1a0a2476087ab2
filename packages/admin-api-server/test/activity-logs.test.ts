import { useTestDatabase } from '@canopy/test-databases';
import { insertActivityLogs, type AdminApiServer } from '../src';
import { apiClient, type ApiClient } from './helpers/api-client';
import { seed, startTestServer, type Seed } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let api: ApiClient;
let s: Seed;
let teamIds: Record<string, number>;
const base = () => `/v1/project/${s.project.name}/environment/Production/activity-logs`;
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

beforeAll(async () => {
  server = await startTestServer(db());
  api = apiClient(server.app);
  s = await seed(server);
  const teams = await server.knex('teams').where({ project_id: s.project.id });
  teamIds = Object.fromEntries(
    teams.map((team: { name: string; id: number }) => [team.name, team.id]),
  );
  const common = { environmentId: s.production.id, teamId: teamIds.Operations! };
  await insertActivityLogs(server.knex, s.project.id, [
    {
      ...common,
      userId: s.admin.id,
      type: 'read',
      action: 'index',
      collectionName: 'orders',
      createdAt: at(0),
    },
    {
      ...common,
      userId: s.admin.id,
      type: 'write',
      action: 'update',
      collectionName: 'orders',
      recordIds: ['42'],
      label: 'updated "order" 42',
      createdAt: at(1),
    },
    {
      ...common,
      userId: s.editor.id,
      teamId: teamIds.Support!,
      type: 'write',
      action: 'delete',
      collectionName: 'customers',
      recordIds: ['7', '8'],
      createdAt: at(2),
    },
    {
      ...common,
      userId: s.editor.id,
      teamId: teamIds.Support!,
      type: 'read',
      action: 'startProcessingInboxTask',
      inbox: { name: 'Ids check' },
      createdAt: at(3),
    },
    {
      ...common,
      userId: s.admin.id,
      type: 'write',
      action: 'completeWorkflow',
      workflow: { name: 'KYC', runId: '26', stepName: 'review' },
      createdAt: at(4),
    },
    {
      environmentId: s.staging.id,
      teamId: teamIds.Operations!,
      userId: s.admin.id,
      type: 'read',
      action: 'index',
      collectionName: 'orders',
      createdAt: at(5),
    },
  ]);
});
afterAll(() => server.close());

describe('GET …/activity-logs', () => {
  it('lists the environment logs newest first in the contract shape, echoing parameters', async () => {
    const res = await api.get(base(), { token: s.tokens['activity_logs:read'] });
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.parameters).toEqual({
      projectName: s.project.name,
      environmentName: 'Production',
      limit: 10,
    });
    expect(res.body.data.map((log: { action: string }) => log.action)).toEqual([
      'completeWorkflow',
      'startProcessingInboxTask',
      'delete',
      'update',
      'index',
    ]);
    const [workflow, inbox, deletion, update] = res.body.data;
    expect(workflow.workflow).toEqual({
      object: 'workflow',
      name: 'KYC',
      runId: '26',
      stepName: 'review',
    });
    expect(inbox.inbox).toEqual({ object: 'inbox', name: 'Ids check' });
    expect(inbox.collection).toBeUndefined();
    expect(deletion).toMatchObject({
      object: 'activityLog',
      type: 'write',
      recordIds: ['7', '8'],
      user: { object: 'user', id: s.editor.id, email: s.editor.email, username: 'Ed Editor' },
      team: { object: 'team', name: 'Support' },
      environment: { object: 'environment', name: 'Production' },
      collection: { object: 'collection', name: 'customers' },
      createdAt: at(2).toISOString(),
    });
    expect(update.label).toBe('updated "order" 42');
    expect(typeof update.id).toBe('string');
  });

  it.each([
    ['userId', () => String(s.editor.id), ['startProcessingInboxTask', 'delete']],
    ['userEmail', () => s.editor.email.toUpperCase(), ['startProcessingInboxTask', 'delete']],
    ['teamName', () => 'Support', ['startProcessingInboxTask', 'delete']],
    ['collectionName', () => 'orders', ['update', 'index']],
    ['recordId', () => '8', ['delete']],
    ['action', () => 'update', ['update']],
    ['type', () => 'read', ['startProcessingInboxTask', 'index']],
    ['createdAt.eq', () => at(1).toISOString(), ['update']],
    ['createdAt.lt', () => at(2).toISOString(), ['update', 'index']],
    ['createdAt.lte', () => at(2).toISOString(), ['delete', 'update', 'index']],
    ['createdAt.gt', () => at(3).toISOString(), ['completeWorkflow']],
    ['createdAt.gte', () => at(3).toISOString(), ['completeWorkflow', 'startProcessingInboxTask']],
  ])('filters by %s', async (name, value, expected) => {
    const res = await api.get(`${base()}?${name}=${encodeURIComponent(value())}`, {
      token: s.tokens['activity_logs:read'],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((log: { action: string }) => log.action)).toEqual(expected);
    expect(res.body.parameters[name]).toBeDefined();
  });

  it('combines filters and normalizes dates in the echo', async () => {
    const res = await api.get(
      `${base()}?userId=${s.admin.id}&type=write&createdAt.gte=2026-03-01T11:00:00%2B01:00&limit=1`,
      { token: s.tokens.all },
    );
    expect(res.status).toBe(200);
    expect(res.body.parameters).toEqual({
      projectName: s.project.name,
      environmentName: 'Production',
      limit: 1,
      userId: s.admin.id,
      type: 'write',
      'createdAt.gte': '2026-03-01T10:00:00.000Z',
    });
    expect(res.body.data.map((log: { action: string }) => log.action)).toEqual([
      'completeWorkflow',
    ]);
    expect(res.body.hasMore).toBe(true);
  });

  it('accepts limit 1 and 100', async () => {
    for (const limit of [1, 100]) {
      const res = await api.get(`${base()}?limit=${limit}`, { token: s.tokens.all });
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(Math.min(limit, 5));
    }
  });

  it.each([
    ['limit=0', 'limit', 'between 1 and 100'],
    ['limit=101', 'limit', 'between 1 and 100'],
    ['limit=abc', 'limit', 'integer'],
    ['limit=1.5', 'limit', 'integer'],
    ['userId=0', 'userId', '1'],
    ['userEmail=not-an-email', 'userEmail', 'email'],
    ['createdAt.gte=yesterday', 'createdAt.gte', 'ISO 8601'],
    ['createdAt.lt=2026-02-30T00:00:00Z', 'createdAt.lt', 'ISO 8601'],
    ['action=fly', 'action', 'one of'],
    ['type=delete', 'type', 'read, write'],
    ['teamName=', 'teamName', 'empty'],
    ['sort=createdAt', 'sort', 'not accepted'],
    ['cursor=bogus', 'cursor', 'nextCursor'],
    ['limit=1&limit=2', 'limit', 'integer'],
  ])('rejects %s with a 400 naming the parameter', async (query, name, hint) => {
    const res = await api.get(`${base()}?${query}`, { token: s.tokens.all });
    expect(res.status).toBe(400);
    expect(res.body.code).toMatch(/^invalid_(parameter|cursor)$/);
    expect(res.body.message).toContain(`"${name}"`);
    expect(res.body.message).toContain(hint);
  });

  it('treats project and environment names as case sensitive', async () => {
    const wrongEnvironment = await api.get(
      `/v1/project/${s.project.name}/environment/production/activity-logs`,
      {
        token: s.tokens.all,
      },
    );
    expect(wrongEnvironment.status).toBe(404);
    expect(wrongEnvironment.body.code).toBe('environment_not_found');
    const wrongProject = await api.get(
      `/v1/project/${s.project.name.toLowerCase()}/environment/Production/activity-logs`,
      {
        token: s.tokens.all,
      },
    );
    expect(wrongProject.status).toBe(404);
    expect(wrongProject.body).toEqual({
      code: 'project_not_found',
      message: expect.stringContaining('case sensitive'),
    });
  });
});

describe('pagination', () => {
  const total = 2500;
  let env: string;

  beforeAll(async () => {
    const pagedProject = await seed(server);
    env = `/v1/project/${pagedProject.project.name}/environment/Production/activity-logs`;
    const operations = (
      await server
        .knex('teams')
        .where({ project_id: pagedProject.project.id, name: 'Operations' })
        .first()
    ).id;
    // 2500 logs over only 5 distinct timestamps: 500 share each instant.
    await insertActivityLogs(
      server.knex,
      pagedProject.project.id,
      Array.from({ length: total }, (_, i) => ({
        environmentId: pagedProject.production.id,
        userId: pagedProject.admin.id,
        teamId: operations,
        type: 'read' as const,
        action: 'read' as const,
        recordIds: [String(i)],
        createdAt: at(i % 5),
      })),
    );
    pagedToken = pagedProject.tokens.all;
  });
  let pagedToken: string;

  it('walks every row exactly once with nextCursor, in (createdAt, id) descending order', async () => {
    const seen: string[] = [];
    const stamps: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `${env}?limit=100${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await api.get(url, { token: pagedToken });
      expect(res.status).toBe(200);
      pages += 1;
      for (const log of res.body.data) {
        seen.push(log.id);
        stamps.push(log.createdAt);
      }
      expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(pages).toBe(25);
    expect(new Set(seen).size).toBe(total);
    const keys = seen.map((id, i) => [stamps[i]!, BigInt(id)] as const);
    for (let i = 1; i < keys.length; i += 1) {
      const [prevStamp, prevId] = keys[i - 1]!;
      const [stamp, id] = keys[i]!;
      expect(stamp < prevStamp || (stamp === prevStamp && id < prevId)).toBe(true);
    }
  });

  it('keeps the filters while following the cursor', async () => {
    let cursor: string | null = null;
    let count = 0;
    do {
      const url: string = `${env}?limit=100&createdAt.lte=${encodeURIComponent(at(1).toISOString())}${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await api.get(url, { token: pagedToken });
      count += res.body.data.length;
      for (const log of res.body.data) expect(log.createdAt <= at(1).toISOString()).toBe(true);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(count).toBe(1000);
  });

  it('paginates with createdAt.lt as the spec says (one page per distinct timestamp at most)', async () => {
    // With createdAt.lt, rows sharing the oldest timestamp of a page are skipped: the reason
    // nextCursor exists. Here every instant holds 500 rows, so limit 100 moves one instant per page.
    const first = await api.get(`${env}?limit=100`, { token: pagedToken });
    const oldest = first.body.data[first.body.data.length - 1].createdAt;
    const second = await api.get(`${env}?limit=100&createdAt.lt=${encodeURIComponent(oldest)}`, {
      token: pagedToken,
    });
    expect(second.status).toBe(200);
    expect(second.body.data.every((log: { createdAt: string }) => log.createdAt < oldest)).toBe(
      true,
    );
    expect(second.body.data[0].createdAt).toBe(at(3).toISOString());
  });
});
