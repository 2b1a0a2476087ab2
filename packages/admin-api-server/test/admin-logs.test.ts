import { useTestDatabase } from '@canopy/test-databases';
import { insertAdminLogs, type AdminApiServer } from '../src';
import { apiClient, type ApiClient } from './helpers/api-client';
import { seed, startTestServer, type Seed } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let api: ApiClient;
let s: Seed;
const T0 = Date.parse('2026-05-01T08:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const url = () => `/v1/project/${s.project.name}/admin-logs`;

beforeAll(async () => {
  server = await startTestServer(db());
  api = apiClient(server.app);
  s = await seed(server);
  const other = await seed(server);
  const user = (u: { id: number; email: string; username: string }) => ({
    object: 'user',
    id: u.id,
    email: u.email,
    username: u.username,
  });
  await insertAdminLogs(server.knex, s.project.id, [
    {
      type: 'initial',
      resource: 'environment',
      initiator: 'forestAdmin',
      newValue: { name: 'Production', codeCustomizationVersion: 1 },
      createdAt: at(0),
    },
    {
      type: 'add',
      resource: 'user-project',
      initiator: 'administrator',
      userId: s.admin.id,
      newValue: {
        user: user(s.editor),
        permissionLevel: 'editor',
        role: { object: 'role', name: 'Support' },
        teams: [{ object: 'team', name: 'Support' }],
        tags: [{ key: 'region', value: 'EU' }],
      },
      createdAt: at(1),
    },
    {
      type: 'update',
      resource: 'team',
      initiator: 'administrator',
      userId: s.admin.id,
      previousValue: { name: 'Ops' },
      newValue: { name: 'Operations' },
      createdAt: at(2),
    },
    {
      type: 'remove',
      resource: 'role',
      initiator: 'identityProvider',
      userId: s.editor.id,
      previousValue: { name: 'Legacy' },
      createdAt: at(3),
    },
  ]);
  await insertAdminLogs(server.knex, other.project.id, [
    { type: 'add', resource: 'team', initiator: 'administrator', newValue: { name: 'Elsewhere' } },
  ]);
});
afterAll(() => server.close());

const types = (res: { body: { data: { type: string }[] } }) => res.body.data.map((log) => log.type);

it('lists the project admin logs newest first in the contract shape', async () => {
  const res = await api.get(url(), { token: s.tokens['admin_logs:read'] });
  expect(res.status).toBe(200);
  expect(types(res)).toEqual(['remove', 'update', 'add', 'initial']);
  expect(res.body.parameters).toEqual({ projectName: s.project.name, limit: 10 });
  const [removal, update, addition, initial] = res.body.data;
  expect(initial.user).toBeUndefined();
  expect(initial.newValue).toEqual({ name: 'Production', codeCustomizationVersion: 1 });
  expect(addition.user).toEqual({
    object: 'user',
    id: s.admin.id,
    email: s.admin.email,
    username: 'Ada Admin',
  });
  expect(addition.newValue.permissionLevel).toBe('editor');
  expect(update.previousValue).toEqual({ name: 'Ops' });
  expect(removal).toMatchObject({
    object: 'adminLog',
    resource: 'role',
    initiator: 'identityProvider',
    createdAt: at(3).toISOString(),
  });
});

it.each([
  ['type', 'update', ['update']],
  ['initiator', 'administrator', ['update', 'add']],
  ['resource', 'user-project', ['add']],
  ['userId', 'EDITOR', ['remove']],
  ['userEmail', 'ADMIN', ['update', 'add']],
  ['createdAt.gt', at(1).toISOString(), ['remove', 'update']],
  ['createdAt.gte', at(1).toISOString(), ['remove', 'update', 'add']],
  ['createdAt.lt', at(1).toISOString(), ['initial']],
  ['createdAt.lte', at(1).toISOString(), ['add', 'initial']],
  ['createdAt.eq', at(2).toISOString(), ['update']],
])('filters by %s', async (name, raw, expected) => {
  const value = raw === 'EDITOR' ? String(s.editor.id) : raw === 'ADMIN' ? s.admin.email : raw;
  const res = await api.get(`${url()}?${name}=${encodeURIComponent(value)}`, {
    token: s.tokens['admin_logs:read'],
  });
  expect(res.status).toBe(200);
  expect(types(res)).toEqual(expected);
});

it('paginates with createdAt.lt as the spec says', async () => {
  const first = await api.get(`${url()}?limit=2`, { token: s.tokens.all });
  expect(types(first)).toEqual(['remove', 'update']);
  const oldest = first.body.data[1].createdAt;
  const second = await api.get(`${url()}?limit=2&createdAt.lt=${encodeURIComponent(oldest)}`, {
    token: s.tokens.all,
  });
  expect(types(second)).toEqual(['add', 'initial']);
  expect(second.body.hasMore).toBe(false);
});

it('accepts limit 1 to 100 only', async () => {
  expect((await api.get(`${url()}?limit=1`, { token: s.tokens.all })).body.data).toHaveLength(1);
  expect((await api.get(`${url()}?limit=100`, { token: s.tokens.all })).status).toBe(200);
  expect((await api.get(`${url()}?limit=101`, { token: s.tokens.all })).status).toBe(400);
});

it('paginates with nextCursor', async () => {
  const first = await api.get(`${url()}?limit=3`, { token: s.tokens.all });
  expect(first.body.hasMore).toBe(true);
  const second = await api.get(`${url()}?limit=3&cursor=${first.body.nextCursor}`, {
    token: s.tokens.all,
  });
  expect(types(second)).toEqual(['initial']);
  expect(second.body.hasMore).toBe(false);
});

it.each([
  ['type=delete', 'type'],
  ['initiator=robot', 'initiator'],
  ['resource=project', 'resource'],
  ['action=read', 'action'],
  ['limit=0', 'limit'],
])('rejects %s', async (query, name) => {
  const res = await api.get(`${url()}?${query}`, { token: s.tokens.all });
  expect(res.status).toBe(400);
  expect(res.body.message).toContain(`"${name}"`);
});

it('answers 404 for an unknown project', async () => {
  const res = await api.get('/v1/project/NoSuchProject/admin-logs', { token: s.tokens.all });
  expect(res.status).toBe(404);
  expect(res.body.code).toBe('project_not_found');
});
