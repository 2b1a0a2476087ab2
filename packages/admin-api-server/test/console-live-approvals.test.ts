import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { addProjectMember, createUser, issueEnvironmentSecret, type AdminApiServer } from '../src';
import { updateRole } from '../src/store/management/roles';
import {
  consoleSession,
  openConsoleStream,
  type LiveEvent,
  type OpenStream,
} from './helpers/console-stream';
import { seed, startTestServer, type Seed } from './helpers/test-server';

// Approval events, approval inbox items and rights-changed on role edits (docs/public-api.md §8),
// on two servers sharing one database, as two replicas: each event reaches exactly the members it
// is for, whichever replica their stream is on.
const db = useTestDatabase('postgres');
let a: AdminApiServer;
let b: AdminApiServer;
let originA: string;
let originB: string;
let shop: Seed;
let other: Seed;
const opened: OpenStream[] = [];
const users = { requester: 0, manager: 0, deputy: 0, member: 0, clerk: 0 };
let roleIds: Record<'Support' | 'Manager' | 'Member', number>;

const env = () => `/v1/project/${shop.project.name}/environment/Production`;
const approvalEvent = (e: LiveEvent) => e.event.startsWith('approval-');

/** The orders collection with the action Refund order, as the agent uploads it. */
const SCHEMA = {
  data: [
    {
      type: 'collections',
      id: 'orders',
      attributes: { name: 'orders', fields: [] },
      relationships: { actions: { data: [{ type: 'actions', id: 'orders-0-refund-order' }] } },
    },
  ],
  included: [
    { type: 'actions', id: 'orders-0-refund-order', attributes: { name: 'Refund order' } },
  ],
  meta: { schemaFileHash: 'live-approvals-1' },
};

const approvals = (userId: number, path = '') =>
  request(a.app)
    .post(`/api/action-approvals${path}`)
    .set('authorization', `Bearer ${consoleSession(userId)}`)
    .set('forest-environment-id', String(shop.production.id));

const fileRequest = () =>
  approvals(users.requester).send({
    data: {
      type: 'action-approvals',
      attributes: {
        action_name: 'Refund order',
        collection_name: 'orders',
        smart_action_id: 'orders-0-refund-order',
        record_ids: ['42'],
        inputs: [{ name: 'Reason', type: 'String', value: 'secret-reason' }],
        request: null,
      },
    },
  });

async function stream(
  server: AdminApiServer,
  origin: string,
  userId: number,
  environment = 'Production',
) {
  const s = await openConsoleStream(server, origin, userId, {
    project: shop.project.name,
    environment,
  });
  opened.push(s);
  await s.waitFor((e) => e.event === 'ready');
  return s;
}

const inbox = (userId: number) =>
  request(a.app)
    .get(`${env()}/inbox`)
    .set('authorization', `Bearer ${consoleSession(userId)}`);

beforeAll(async () => {
  a = await startTestServer(db());
  b = await startTestServer(db());
  originA = `http://127.0.0.1:${await a.listen(0)}`;
  originB = `http://127.0.0.1:${await b.listen(0)}`;
  shop = await seed(a);
  other = await seed(a);
  const knex = a.knex;
  const secret = await issueEnvironmentSecret(knex, shop.production.id);
  await request(a.app)
    .post('/forest/apimaps')
    .set('forest-secret-key', secret)
    .send(SCHEMA)
    .expect(200);
  const role = async (name: string, rights: Record<string, unknown>) =>
    (await knex('roles').insert({ project_id: shop.project.id, name, rights }).returning('id'))[0]
      .id as number;
  // Support must have refunds approved and may not approve them; a Manager may approve those of
  // others; a Member may not approve.
  roleIds = {
    Support: await role('Support', {
      actions: {
        orders: { 'Refund order': { approvalRequired: true, userApprovalEnabled: false } },
      },
    }),
    Manager: await role('Manager', {
      actions: { orders: { 'Refund order': { selfApprovalEnabled: false } } },
    }),
    Member: await role('Member', {
      actions: { orders: { 'Refund order': { userApprovalEnabled: false } } },
    }),
  };
  for (const [who, roleName] of [
    ['requester', 'Support'],
    ['manager', 'Manager'],
    ['deputy', 'Manager'],
    ['member', 'Member'],
    ['clerk', 'Support'],
  ] as const) {
    const user = await createUser(knex, { email: `${who}@live-approvals.example`, username: who });
    users[who] = user.id;
    await addProjectMember(knex, {
      projectId: shop.project.id,
      userId: user.id,
      permissionLevel: 'user',
      teamNames: ['Support'],
    });
    await knex('project_memberships')
      .where({ project_id: shop.project.id, user_id: user.id })
      .update({ role_id: roleIds[roleName] });
  }
});
afterAll(async () => {
  for (const s of opened) s.close();
  await Promise.all([a.close(), b.close()]);
});

describe('approval events and inbox', () => {
  it('tells the requester and the members who may approve, on every replica, and nobody else', async () => {
    const requester = await stream(b, originB, users.requester);
    const manager = await stream(a, originA, users.manager);
    const deputy = await stream(b, originB, users.deputy);
    const member = await stream(a, originA, users.member);
    const clerk = await stream(b, originB, users.clerk);
    const admin = await stream(a, originA, shop.admin.id);
    const managerStaging = await stream(b, originB, users.manager, 'Staging');
    const outsider = await openConsoleStream(a, originA, other.admin.id, {
      project: other.project.name,
      environment: 'Production',
    });
    opened.push(outsider);
    await outsider.waitFor((e) => e.event === 'ready');

    const filed = await fileRequest();
    expect(filed.status).toBe(201);
    const id = Number(filed.body.data.id);
    const expected = {
      approvalId: id,
      collection: 'orders',
      actionName: 'Refund order',
      recordIds: ['42'],
      requesterId: users.requester,
      status: 'pending',
    };
    const toManager = await manager.waitFor((e) => e.event === 'approval-requested');
    expect(toManager.data).toEqual({ ...expected, inboxItemId: expect.any(Number) });
    expect((await deputy.waitFor((e) => e.event === 'approval-requested')).data).toEqual({
      ...expected,
      inboxItemId: expect.any(Number),
    });
    expect((await requester.waitFor((e) => e.event === 'approval-requested')).data).toEqual({
      ...expected,
      inboxItemId: null,
    });
    // No input value travels in the event.
    expect(JSON.stringify(toManager.data)).not.toContain('secret-reason');

    // The inbox of each member who may approve, unread; not the requester's nor anyone else's.
    const managerInbox = await inbox(users.manager);
    expect(managerInbox.status).toBe(200);
    expect(managerInbox.body.unreadCount).toBe(1);
    expect(managerInbox.body.data).toEqual([
      {
        object: 'inbox-item',
        id: toManager.data.inboxItemId,
        kind: 'approval',
        note: null,
        approval: {
          id,
          collectionName: 'orders',
          actionName: 'Refund order',
          recordIds: ['42'],
          status: 'pending',
        },
        by: { id: users.requester, email: 'requester@live-approvals.example', name: 'requester' },
        createdAt: expect.any(String),
        readAt: null,
      },
    ]);
    for (const who of [users.requester, users.member, users.clerk, shop.admin.id]) {
      expect((await inbox(who)).body).toMatchObject({ data: [], unreadCount: 0 });
    }

    const rejected = await approvals(users.manager, `/${id}/reject`).send({});
    expect(rejected.status).toBe(200);
    const decided = { ...expected, status: 'rejected', deciderId: users.manager };
    for (const s of [requester, manager, deputy]) {
      expect((await s.waitFor((e) => e.event === 'approval-decided')).data).toEqual(decided);
    }
    // Decided: read for everyone who had it, and it stays, showing the decision.
    for (const who of [users.manager, users.deputy]) {
      const after = await inbox(who);
      expect(after.body.unreadCount).toBe(0);
      expect(after.body.data[0]).toMatchObject({
        kind: 'approval',
        approval: { id, status: 'rejected' },
        readAt: expect.any(String),
      });
    }

    await new Promise((done) => setTimeout(done, 500));
    for (const s of [member, clerk, admin, managerStaging, outsider]) {
      expect(s.events.filter(approvalEvent)).toEqual([]);
    }
    for (const s of [requester, manager, deputy]) {
      expect(s.events.filter(approvalEvent).map((e) => e.event)).toEqual([
        'approval-requested',
        'approval-decided',
      ]);
    }
  });

  it('counts pending approvals with mentions, and a read item stays read when decided', async () => {
    const filed = await fileRequest();
    const id = Number(filed.body.data.id);
    const note = await request(a.app)
      .post(`${env()}/notes`)
      .set('authorization', `Bearer ${consoleSession(shop.admin.id)}`)
      .send({
        title: 'Refund?',
        recordId: '42',
        collectionName: 'orders',
        message: `<p>@${users.deputy} please look</p>`,
      });
    expect(note.status).toBe(201);
    const deputy = await inbox(users.deputy);
    expect(deputy.body.unreadCount).toBe(2);
    expect(deputy.body.data.map((item: { kind: string }) => item.kind)).toEqual([
      'mention',
      'approval',
      'approval',
    ]);
    const item = deputy.body.data[1];
    await request(a.app)
      .post(`${env()}/inbox/${item.id}/read`)
      .set('authorization', `Bearer ${consoleSession(users.deputy)}`)
      .expect(204);
    const readAt = (await inbox(users.deputy)).body.data[1].readAt as string;
    expect(readAt).toEqual(expect.any(String));
    expect((await inbox(users.manager)).body.unreadCount).toBe(1);
    expect((await approvals(users.deputy, `/${id}/approve`).send({})).status).toBe(200);
    const manager = await inbox(users.manager);
    expect(manager.body.unreadCount).toBe(0);
    expect(manager.body.data[0]).toMatchObject({ approval: { id, status: 'approved' } });
    // The deputy's item keeps the time it was read; the mention stays unread.
    const after = await inbox(users.deputy);
    expect(after.body.data[1]).toMatchObject({ id: item.id, readAt });
    expect(after.body.unreadCount).toBe(1);
  });
});

describe('rights-changed on role edits', () => {
  it('tells every member holding an edited or removed role, on every replica, and nobody else', async () => {
    const requester = await stream(a, originA, users.requester);
    const clerk = await stream(b, originB, users.clerk);
    const clerkStaging = await stream(a, originA, users.clerk, 'Staging');
    const manager = await stream(b, originB, users.manager);
    await updateRole(a.knex, shop.project.id, shop.admin.id, 'Support', {
      rights: { actions: { orders: { 'Refund order': { approvalRequired: false } } } },
    });
    for (const [s, userId] of [
      [requester, users.requester],
      [clerk, users.clerk],
      [clerkStaging, users.clerk],
    ] as const) {
      expect((await s.waitFor((e) => e.event === 'rights-changed')).data).toEqual({ userId });
    }
    // Through the management API: an edit of its rights, then its removal.
    const member = await stream(a, originA, users.member);
    const admin = { authorization: `Bearer ${consoleSession(shop.admin.id)}` };
    const edit = await request(a.app)
      .patch(`/v1/project/${shop.project.name}/roles/Member`)
      .set(admin)
      .send({ rights: {} });
    expect(edit.status).toBe(200);
    await member.waitFor((e) => e.event === 'rights-changed');
    const removed = await request(a.app)
      .delete(`/v1/project/${shop.project.name}/roles/Member`)
      .set(admin);
    expect(removed.status).toBe(204);
    await member.waitFor(
      (e) =>
        e.event === 'rights-changed' &&
        member.events.filter((x) => x.event === 'rights-changed').length === 2,
    );
    expect(member.events.filter((e) => e.event === 'rights-changed')[1]!.data).toEqual({
      userId: users.member,
    });
    await new Promise((done) => setTimeout(done, 500));
    expect(manager.events.filter((e) => e.event === 'rights-changed')).toEqual([]);
    expect(requester.events.filter((e) => e.event === 'rights-changed')).toHaveLength(1);
  });
});

describe('presence cleared when streams close', () => {
  const open = { collection: 'orders', recordId: '9' };
  const presence = (userId: number, body: object) =>
    request(a.app)
      .put(`${env()}/presence`)
      .set('authorization', `Bearer ${consoleSession(userId)}`)
      .send(body);
  const viewers = (watcher: OpenStream, after: number) =>
    watcher.events
      .filter((e) => e.event === 'presence' && Number(e.id) > after)
      .map((e) => e.data.userIds);

  it('clears a presence sent without a stream when the last stream of the member closes, on any replica', async () => {
    // The editor has no other stream open (earlier tests' streams stay open until the end).
    const watcher = await stream(a, originA, shop.admin.id);
    const tabA = await stream(a, originA, shop.editor.id);
    const tabB = await stream(b, originB, shop.editor.id);
    expect((await presence(shop.editor.id, open)).status).toBe(204);
    const shown = await watcher.waitFor((e) => e.event === 'presence');
    expect(shown.data).toEqual({ ...open, userIds: [shop.editor.id] });
    tabA.close();
    await new Promise((done) => setTimeout(done, 800));
    expect(viewers(watcher, Number(shown.id))).toEqual([]);
    tabB.close();
    const cleared = await watcher.waitFor(
      (e) => e.event === 'presence' && Number(e.id) > Number(shown.id),
    );
    expect(cleared.data).toEqual({ ...open, userIds: [] });
    expect(await a.knex('console_streams').where({ user_id: shop.editor.id }).count()).toEqual([
      { count: '0' },
    ]);
  });

  it('clears a presence when the stream it names closes, though another tab stays open', async () => {
    const watcher = await stream(b, originB, shop.admin.id);
    const list = await stream(a, originA, users.deputy);
    const page = await stream(b, originB, users.deputy);
    const streamId = page.events[0]!.data.streamId as string;
    expect(streamId).toEqual(expect.any(String));
    // Another member's stream, or none, is refused.
    const mine = list.events[0]!.data.streamId as string;
    const theirs = await presence(users.manager, { ...open, streamId: mine });
    expect(theirs.status).toBe(400);
    expect(theirs.body.message).toContain('streamId');
    expect((await presence(users.deputy, { ...open, streamId: 'nope' })).status).toBe(400);
    expect((await presence(users.deputy, { ...open, streamId })).status).toBe(204);
    const shown = await watcher.waitFor(
      (e) => e.event === 'presence' && (e.data.userIds as number[]).includes(users.deputy),
    );
    page.close();
    const cleared = await watcher.waitFor(
      (e) => e.event === 'presence' && Number(e.id) > Number(shown.id),
    );
    expect(cleared.data).toEqual({ ...open, userIds: [] });
    expect(list.events.some((e) => e.event === 'presence')).toBe(true);
  });
});
