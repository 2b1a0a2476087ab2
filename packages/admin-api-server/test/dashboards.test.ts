import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { bootstrapProject, signSessionToken, type AdminApiServer } from '../src';
import { seed, startTestServer, TEST_KEYS, type Seed } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let secret: string;
let admin: string;
let member: string;
let other: Seed;

const sessionOf = (userId: number) =>
  signSessionToken(TEST_KEYS, { userId, sso: false, expiresAt: new Date(Date.now() + 600_000) });

const as = (token: string) => ({
  get: (path: string) => request(server.app).get(path).set('authorization', `Bearer ${token}`),
  put: (path: string, body: unknown) =>
    request(server.app)
      .put(path)
      .set('authorization', `Bearer ${token}`)
      .send(body as object),
  post: (path: string, body: unknown) =>
    request(server.app)
      .post(path)
      .set('authorization', `Bearer ${token}`)
      .send(body as object),
});

const PATH = '/v1/project/Shop/environment/Production/dashboard';
const pie = {
  type: 'Pie',
  sourceCollectionName: 'orders',
  aggregator: 'Count',
  aggregateFieldName: null,
  groupByFieldName: 'status',
};
const items = [
  {
    id: 'status',
    title: 'Orders by status',
    width: 6,
    chart: { source: 'collection', query: pie },
  },
  {
    id: 'revenue',
    title: 'Revenue',
    width: 4,
    chart: { source: 'api', chart: 'revenue', kind: 'value' },
  },
];

beforeAll(async () => {
  server = await startTestServer(db());
  const shop = await bootstrapProject(server.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'ada@example.com',
  });
  secret = shop.secret!;
  admin = sessionOf(shop.userId);
  const added = await as(admin)
    .post('/v1/project/Shop/members', {
      email: 'sam@example.com',
      firstName: 'Sam',
      lastName: 'Support',
      permissionLevel: 'user',
      roleName: 'Admin',
      teamNames: ['Operations'],
    })
    .expect(201);
  member = sessionOf(added.body.id);
  other = await seed(server, 'Other');
});

afterAll(async () => {
  await server.close();
});

describe('environment dashboard', () => {
  it('is empty at first, saved by an admin, read by every member', async () => {
    await as(member).get(PATH).expect(200, { items: [], updatedAt: null });
    const saved = await as(admin).put(PATH, { items }).expect(200);
    expect(saved.body.items).toEqual(items);
    expect(Date.parse(saved.body.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await as(member).get(PATH).expect(200)).body.items).toEqual(items);
    const log = await server.knex('admin_logs').orderBy('id', 'desc').first();
    expect(log).toMatchObject({ type: 'update', resource: 'environment' });
  });

  it("serves its UI-built charts in every rendering's stats, after the team's own", async () => {
    const team = await server.knex('teams').where({ name: 'Operations' }).first('id');
    const rendering = await request(server.app)
      .get(`/liana/v4/permissions/renderings/${team.id}`)
      .set('forest-secret-key', secret)
      .expect(200);
    // API charts need no permission: only the collection chart is served.
    expect(rendering.body.stats).toEqual([pie]);
    const event = await server.knex('platform_events').orderBy('id', 'desc').first('event', 'data');
    expect([event.event, JSON.parse(event.data)]).toEqual([
      'refresh-renderings',
      { renderingIds: [team.id] },
    ]);
  });

  it('lets only admins save it', async () => {
    const refused = await as(member).put(PATH, { items: [] }).expect(403);
    expect(refused.body.message).toMatch(/Only an admin of project "Shop"/);
    expect((await as(member).get(PATH)).body.items).toHaveLength(2);
  });

  it('refuses bad dashboards with a 400 naming the problem', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /items/],
      [{ items: [{ ...items[0], width: 5 }] }, /width/],
      [{ items: [{ ...items[0], id: 'a b' }] }, /id/],
      [{ items: [items[0], items[0]] }, /repeats the id "status"/],
      [
        { items: [{ ...items[0], chart: { source: 'collection', query: { type: 'Pie' } } }] },
        /chart/,
      ],
      [{ items: [{ ...items[1], chart: { source: 'api', chart: 'x', kind: 'donut' } }] }, /chart/],
      [{ items: [{ ...items[0], extra: 1 }] }, /extra|additional/],
    ];
    for (const [body, message] of cases) {
      const res = await as(admin).put(PATH, body);
      expect([res.status, res.body.code]).toEqual([400, 'invalid_body']);
      expect(res.body.message).toMatch(message);
    }
    const notJson = await request(server.app)
      .put(PATH)
      .set('authorization', `Bearer ${admin}`)
      .set('content-type', 'application/json')
      .send('{"items": [');
    expect(notJson.status).toBe(400);
    expect((await as(member).get(PATH)).body.items).toEqual(items);
  });

  it('keeps tenants apart: another project is the same 404 as an unknown one', async () => {
    const outsider = sessionOf(other.admin.id);
    const foreign = await as(outsider).get(PATH).expect(404);
    const unknown = await as(outsider).get('/v1/project/Nope/environment/Production/dashboard');
    expect(unknown.status).toBe(404);
    expect(foreign.body.code).toBe(unknown.body.code);
    await as(outsider).put(PATH, { items: [] }).expect(404);
    await as(admin).get('/v1/project/Shop/environment/Nope/dashboard').expect(404);
    await as(admin).get('/v1/project/Other/environment/Production/dashboard').expect(404);
    // Application tokens and no token are refused.
    await as(other.tokens.all)
      .get('/v1/project/Other/environment/Production/dashboard')
      .expect(401);
    await request(server.app).get(PATH).expect(401);
  });
});

describe('the console calls the public API routes with a session token', () => {
  const notes = '/v1/project/Shop/environment/Production/notes';
  const activity = '/v1/project/Shop/environment/Production/activity-logs';

  it('lets any member write and read notes, as themselves', async () => {
    const created = await as(member)
      .post(notes, {
        collectionName: 'orders',
        recordId: '42',
        title: 'Refund',
        message: '<p>Call the <b>customer</b><script>alert(1)</script></p>',
      })
      .expect(201);
    expect(created.body.messages[0].content).toBe('<p>Call the <b>customer</b></p>');
    const listed = await as(admin).get(`${notes}?collectionName=orders&recordId=42`).expect(200);
    expect(listed.body.data.map((note: { id: number }) => note.id)).toEqual([created.body.id]);
    expect(listed.body.data[0].user.email).toBe('sam@example.com');
    await as(sessionOf(other.admin.id)).get(notes).expect(404);
  });

  it("lets members read one record's activity, and only admins the whole log and admin log", async () => {
    await as(member).get(`${activity}?collectionName=orders&recordId=42`).expect(200);
    const refused = await as(member).get(activity).expect(403);
    expect(refused.body.message).toMatch(/Only an admin/);
    await as(member).get(`${activity}/export?format=ndjson`).expect(403);
    await as(member).get('/v1/project/Shop/admin-logs').expect(403);
    await as(admin).get(activity).expect(200);
    const logs = await as(admin).get('/v1/project/Shop/admin-logs').expect(200);
    expect(logs.body.data.length).toBeGreaterThan(0);
    await as(sessionOf(other.admin.id)).get(activity).expect(404);
    // Application tokens still work as before.
    await as(other.tokens['activity_logs:read'])
      .get('/v1/project/Other/environment/Production/activity-logs')
      .expect(200);
  });
});
