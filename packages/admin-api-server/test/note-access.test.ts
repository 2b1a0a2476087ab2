import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { signSessionToken, type AdminApiServer } from '../src';
import { seed, startTestServer, TEST_KEYS, type Seed } from './helpers/test-server';

/**
 * Notes are authorised through the record they hang on: the role's browse/read rights on the
 * collection and the team's scope (which the platform cannot evaluate, so it fails closed), and
 * by author for changes, admins moderating with an admin log. On PostgreSQL.
 */
const db = useTestDatabase('postgres');
let server: AdminApiServer;
let s: Seed;
let admin: string;
let support: string;

const sessionOf = (userId: number) =>
  signSessionToken(TEST_KEYS, { userId, sso: false, expiresAt: new Date(Date.now() + 600_000) });

const as = (token: string) => {
  const send = (method: 'get' | 'post' | 'patch' | 'delete', path: string) =>
    request(server.app)[method](path).set('authorization', `Bearer ${token}`);
  return {
    get: (path: string) => send('get', path),
    post: (path: string, body: object) => send('post', path).send(body),
    patch: (path: string, body: object) => send('patch', path).send(body),
    delete: (path: string) => send('delete', path),
  };
};

const notes = (environment = 'Production') =>
  `/v1/project/${s.project.name}/environment/${environment}/notes`;

async function noteBy(token: string, collectionName: string, recordId: string, title: string) {
  const res = await as(token)
    .post(notes(), { collectionName, recordId, title, message: `<p>${title}</p>` })
    .expect(201);
  return res.body.id as number;
}

let customerNote: number;
let paymentNote: number;
let orderNote: number;

beforeAll(async () => {
  server = await startTestServer(db());
  s = await seed(server);
  const knex = server.knex;
  // Support (the seed's editor, in team Support): a role that may not browse payments, and a
  // team whose scope hides some customers.
  const [role] = await knex('roles')
    .insert({
      project_id: s.project.id,
      name: 'Support',
      rights: JSON.stringify({ collections: { payments: { browseEnabled: false } } }),
    })
    .returning('id');
  await knex('project_memberships')
    .where({ project_id: s.project.id, user_id: s.editor.id })
    .update({ role_id: role.id });
  await knex('teams')
    .where({ project_id: s.project.id, name: 'Support' })
    .update({
      scopes: JSON.stringify({
        customers: { field: 'region', operator: 'equal', value: 'EU' },
      }),
    });
  admin = sessionOf(s.admin.id);
  support = sessionOf(s.editor.id);
  customerNote = await noteBy(admin, 'customers', '7', 'VIP outside Europe');
  paymentNote = await noteBy(admin, 'payments', '3', 'Chargeback');
  orderNote = await noteBy(admin, 'orders', '1', 'Late parcel');
});
afterAll(() => server.close());

describe('who sees a note', () => {
  it('lists to Support only the notes of collections it may browse and that its team does not scope', async () => {
    const listed = await as(support).get(notes()).expect(200);
    expect(listed.body.data.map((note: { id: number }) => note.id)).toEqual([orderNote]);
    const all = await as(admin).get(notes()).expect(200);
    expect(all.body.data.map((note: { id: number }) => note.id)).toEqual([
      orderNote,
      paymentNote,
      customerNote,
    ]);
  });

  it("refuses Support a record's notes when its team scopes the collection, saying why", async () => {
    const refused = await as(support)
      .get(`${notes()}?collectionName=customers&recordId=7`)
      .expect(403);
    expect(refused.body).toEqual({
      error: 'forbidden',
      message: expect.stringContaining(`Your team's scope on collection "customers"`),
    });
    const one = await as(support).get(`${notes()}/${customerNote}`).expect(403);
    expect(one.body.message).toContain('scope');
    expect(JSON.stringify(one.body)).not.toContain('VIP');
  });

  it('refuses Support the notes of a collection its role may not browse', async () => {
    const refused = await as(support).get(`${notes()}?collectionName=payments`).expect(403);
    expect(refused.body.message).toContain(
      'Your role may not browse and read collection "payments"',
    );
    await as(support).get(`${notes()}/${paymentNote}`).expect(403);
    await as(support)
      .post(`${notes()}/${paymentNote}/messages`, { content: '<p>me too</p>' })
      .expect(403);
    await as(support)
      .post(notes(), {
        collectionName: 'payments',
        recordId: '3',
        title: 'x',
        message: '<p>x</p>',
      })
      .expect(403);
    expect(await server.knex('notes').where({ collection_name: 'payments' })).toHaveLength(1);
  });

  it('does not reveal a note through a mention of someone who cannot see its record', async () => {
    const mentioning = await noteBy(
      admin,
      'customers',
      '8',
      `Ask <strong class="mention">@${s.editor.email}</strong>`,
    );
    const listed = await as(support).get(`${notes()}?userEmail=${s.admin.email}`).expect(200);
    expect(listed.body.data.map((note: { id: number }) => note.id)).not.toContain(mentioning);
    await as(support).get(`${notes()}/${mentioning}`).expect(403);
  });

  it('shows the notes of a scoped collection to a member who also belongs to an unscoped team', async () => {
    const membership = await server
      .knex('project_memberships')
      .where({ project_id: s.project.id, user_id: s.editor.id })
      .first('id');
    const operations = await server
      .knex('teams')
      .where({ project_id: s.project.id, name: 'Operations' })
      .first('id');
    await server
      .knex('project_membership_teams')
      .insert({ membership_id: membership.id, team_id: operations.id });
    try {
      await as(support).get(`${notes()}/${customerNote}`).expect(200);
    } finally {
      await server
        .knex('project_membership_teams')
        .where({ membership_id: membership.id, team_id: operations.id })
        .delete();
    }
  });

  it('shows a member without a role nothing in production, and everything unscoped in development', async () => {
    await server
      .knex('project_memberships')
      .where({ project_id: s.project.id, user_id: s.editor.id })
      .update({ role_id: null });
    try {
      const production = await as(support).get(notes()).expect(200);
      expect(production.body.data).toEqual([]);
      const refused = await as(support).get(`${notes()}/${orderNote}`).expect(403);
      expect(refused.body.message).toContain('no role');
      const created = await as(admin)
        .post(notes('Staging'), {
          collectionName: 'payments',
          recordId: '1',
          title: 'dev',
          message: '<p>dev</p>',
        })
        .expect(201);
      await as(support)
        .get(`${notes('Staging')}/${created.body.id}`)
        .expect(200);
    } finally {
      const role = await server
        .knex('roles')
        .where({ project_id: s.project.id, name: 'Support' })
        .first('id');
      await server
        .knex('project_memberships')
        .where({ project_id: s.project.id, user_id: s.editor.id })
        .update({ role_id: role.id });
    }
  });
});

describe('who changes a note', () => {
  it("refuses Support renaming or deleting the admin's note, and keeps it", async () => {
    const renamed = await as(support)
      .patch(`${notes()}/${orderNote}`, { title: 'Mine now' })
      .expect(403);
    expect(renamed.body.message).toContain(`Only the author of note ${orderNote}`);
    await as(support).patch(`${notes()}/${orderNote}`, { archived: true }).expect(403);
    await as(support).delete(`${notes()}/${orderNote}`).expect(403);
    await as(support).patch(`${notes()}/${customerNote}`, { title: 'x' }).expect(403);
    await as(support).delete(`${notes()}/${customerNote}`).expect(403);
    const kept = await as(admin).get(`${notes()}/${orderNote}`).expect(200);
    expect(kept.body).toMatchObject({ title: 'Late parcel' });
    expect(kept.body.archivedAt).toBeUndefined();
    expect(await server.knex('notes').where({ id: customerNote })).toHaveLength(1);
  });

  it('lets Support reply to a note it may see, and change and delete its own, without admin logs', async () => {
    await as(support)
      .post(`${notes()}/${orderNote}/messages`, { content: '<p>On it</p>' })
      .expect(201);
    const own = await noteBy(support, 'orders', '2', 'Mine');
    await as(support).patch(`${notes()}/${own}`, { title: 'Still mine' }).expect(200);
    await as(support).delete(`${notes()}/${own}`).expect(204);
    const logs = await server
      .knex('admin_logs')
      .where({ project_id: s.project.id, resource: 'note' });
    expect(logs).toEqual([]);
  });

  it("lets an admin moderate someone else's note, each moderation in the admin logs", async () => {
    const theirs = await noteBy(support, 'orders', '5', 'Rude title');
    const renamed = await as(admin)
      .patch(`${notes()}/${theirs}`, { title: 'Customer complaint' })
      .expect(200);
    expect(renamed.body).toMatchObject({ title: 'Customer complaint', user: { id: s.editor.id } });
    await as(admin).delete(`${notes()}/${theirs}`).expect(204);
    // The admin's own notes are no moderation.
    await as(admin).patch(`${notes()}/${orderNote}`, { title: 'Late parcel (2)' }).expect(200);

    const logs = await as(admin)
      .get(`/v1/project/${s.project.name}/admin-logs?resource=note`)
      .expect(200);
    const note = {
      id: theirs,
      archived: false,
      collectionName: 'orders',
      recordId: '5',
      environmentName: 'Production',
      authorEmail: s.editor.email,
    };
    expect(logs.body.data).toEqual([
      expect.objectContaining({
        type: 'remove',
        resource: 'note',
        initiator: 'administrator',
        user: expect.objectContaining({ id: s.admin.id }),
        previousValue: { ...note, title: 'Customer complaint' },
      }),
      expect.objectContaining({
        type: 'update',
        resource: 'note',
        initiator: 'administrator',
        user: expect.objectContaining({ id: s.admin.id }),
        previousValue: { ...note, title: 'Rude title' },
        newValue: { ...note, title: 'Customer complaint' },
      }),
    ]);
  });
});
