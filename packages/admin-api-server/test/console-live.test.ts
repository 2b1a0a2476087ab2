import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { addProjectMember, createUser, issueEnvironmentSecret, type AdminApiServer } from '../src';
import { pruneConsoleEvents } from '../src/store/console-events';
import { expirePresence } from '../src/store/presence';
import { updateMember } from '../src/store/management/members';
import { consoleSession, openConsoleStream, type OpenStream } from './helpers/console-stream';
import { seed, startTestServer, type Seed } from './helpers/test-server';

// Two servers on one database, as two replicas: an event raised through A reaches B's streams.
const db = useTestDatabase('postgres');
let a: AdminApiServer;
let b: AdminApiServer;
let originA: string;
let originB: string;
let shop: Seed;
let other: Seed;
let reviewer: { id: number; email: string };
const opened: OpenStream[] = [];

const env = () => `/v1/project/${shop.project.name}/environment/Production`;
const place = () => ({ project: shop.project.name, environment: 'Production' });

function as(userId: number) {
  const auth = { authorization: `Bearer ${consoleSession(userId)}` };
  return {
    get: (path: string) => request(a.app).get(path).set(auth),
    put: (path: string, body: object) => request(a.app).put(path).set(auth).send(body),
    delete: (path: string) => request(a.app).delete(path).set(auth),
    post: (path: string, body?: object) =>
      request(a.app)
        .post(path)
        .set(auth)
        .send(body ?? {}),
  };
}

async function stream(server: AdminApiServer, origin: string, userId: number, last?: string) {
  const opened1 = await openConsoleStream(server, origin, userId, place(), last);
  opened.push(opened1);
  await opened1.waitFor((e) => e.event === 'ready');
  return opened1;
}

async function note(byUserId: number, message: string, collectionName = 'orders') {
  return as(byUserId).post(`${env()}/notes`, {
    title: 'Refund?',
    recordId: '42',
    collectionName,
    message,
  });
}

beforeAll(async () => {
  a = await startTestServer(db());
  b = await startTestServer(db());
  originA = `http://127.0.0.1:${await a.listen(0)}`;
  originB = `http://127.0.0.1:${await b.listen(0)}`;
  shop = await seed(a);
  other = await seed(a);
  reviewer = await createUser(a.knex, {
    email: 'rita.reviewer@example.com',
    username: 'Rita Reviewer',
  });
  await addProjectMember(a.knex, {
    projectId: shop.project.id,
    userId: reviewer.id,
    permissionLevel: 'admin',
  });
});
afterAll(async () => {
  for (const s of opened) s.close();
  await Promise.all([a.close(), b.close()]);
});

describe('stream authentication', () => {
  it('opens a stream only with a fresh single-use ticket got with a member session', async () => {
    expect((await request(a.app).get(`${env()}/live`)).status).toBe(401);
    expect((await request(a.app).get(`${env()}/live?ticket=nope`)).status).toBe(401);
    const issued = await as(shop.admin.id).post(`${env()}/live/tickets`);
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({
      object: 'live-stream-ticket',
      url: expect.stringContaining('/live?ticket='),
    });
    const first = await fetch(`${originA}${issued.body.url}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('text/event-stream');
    await first.body?.cancel();
    const again = await request(a.app).get(issued.body.url);
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('unauthorized');
  });

  it('refuses application tokens and gives non-members the unknown-project answer', async () => {
    const app = await request(a.app)
      .post(`${env()}/live/tickets`)
      .set('authorization', `Bearer ${shop.tokens.all}`);
    expect(app.status).toBe(401);
    const outsider = await as(other.admin.id).post(`${env()}/live/tickets`);
    const unknown = await as(other.admin.id).post(
      `/v1/project/Nope/environment/Production/live/tickets`,
    );
    expect(outsider.status).toBe(404);
    expect(outsider.body.code).toBe('project_not_found');
    expect(unknown.body.code).toBe(outsider.body.code);
  });

  it('does not open a stream of another project with a ticket of its own project', async () => {
    const own = await as(other.admin.id).post(
      `/v1/project/${other.project.name}/environment/Production/live/tickets`,
    );
    const elsewhere = await request(a.app).get(`${env()}/live?ticket=${own.body.ticket}`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe('project_not_found');
  });
});

describe('events', () => {
  it('sends note events to members who may see the collection, across replicas, and to no other project', async () => {
    const onB = await stream(b, originB, reviewer.id);
    const editor = await stream(a, originA, shop.editor.id);
    const outsider = await openConsoleStream(a, originA, other.admin.id, {
      project: other.project.name,
      environment: 'Production',
    });
    opened.push(outsider);
    await outsider.waitFor((e) => e.event === 'ready');
    const created = await note(shop.admin.id, '<p>Look</p>');
    expect(created.status).toBe(201);
    const event = await onB.waitFor((e) => e.event === 'note-created');
    expect(event.data).toEqual({
      noteId: created.body.id,
      collectionName: 'orders',
      recordId: '42',
      userId: shop.admin.id,
    });
    // The editor has no role, so no note of any collection is shown to them.
    const mention = await note(shop.admin.id, `<p>@${shop.editor.email} see this</p>`);
    expect(mention.status).toBe(201);
    await editor.waitFor((e) => e.event === 'mention');
    expect(editor.events.map((e) => e.event)).toEqual(['ready', 'mention']);
    await new Promise((done) => setTimeout(done, 300));
    expect(outsider.events.map((e) => e.event)).toEqual(['ready']);
  });

  it('tells a member whose rights changed, and nobody else', async () => {
    const editor = await stream(a, originA, shop.editor.id);
    const admin = await stream(b, originB, reviewer.id);
    await updateMember(a.knex, shop.project.id, shop.admin.id, shop.editor.id, {
      permissionLevel: 'developer',
    });
    const changed = await editor.waitFor((e) => e.event === 'rights-changed');
    expect(changed.data).toEqual({ userId: shop.editor.id });
    await note(shop.admin.id, '<p>after</p>');
    await admin.waitFor((e) => e.event === 'note-created');
    expect(admin.events.some((e) => e.event === 'rights-changed')).toBe(false);
  });

  it('replays the events after Last-Event-ID, and asks for a resync when it cannot', async () => {
    const first = await stream(a, originA, reviewer.id);
    await note(shop.admin.id, '<p>one</p>');
    const one = await first.waitFor((e) => e.event === 'note-created');
    await note(shop.admin.id, '<p>two</p>');
    await note(shop.admin.id, '<p>three</p>');
    await first.waitFor(
      (e) =>
        e.event === 'note-created' &&
        e.id !== one.id &&
        first.events.filter((x) => x.event === 'note-created').length === 3,
    );
    first.close();
    const resumed = await stream(b, originB, reviewer.id, one.id);
    const replayed = resumed.events.filter((e) => e.event === 'note-created');
    expect(replayed).toHaveLength(2);
    expect(replayed.map((e) => BigInt(e.id) > BigInt(one.id))).toEqual([true, true]);
    expect(Number(replayed[0]!.id)).toBeLessThan(Number(replayed[1]!.id));

    const future = await stream(a, originA, reviewer.id, '999999999');
    expect(future.events[0]).toMatchObject({ event: 'resync', data: { reason: 'unknown-id' } });

    await pruneConsoleEvents(a.knex, 0);
    await note(shop.admin.id, '<p>four</p>');
    await resumed.waitFor(
      (e) =>
        e.event === 'note-created' &&
        e.id !== replayed[1]!.id &&
        BigInt(e.id) > BigInt(replayed[1]!.id),
    );
    const old = await stream(a, originA, reviewer.id, one.id);
    expect(old.events[0]).toMatchObject({ event: 'resync', data: { reason: 'too-old' } });
  });
});

describe('record changes reported by agents', () => {
  it('streams a reported write to members who may see the collection, and checks the body', async () => {
    const secret = await issueEnvironmentSecret(a.knex, shop.production.id);
    const admin = await stream(b, originB, reviewer.id);
    const editor = await stream(a, originA, shop.editor.id);
    const change = {
      collection: 'orders',
      recordId: '42',
      userId: shop.admin.id,
      operation: 'update',
      fields: ['status'],
      correlationId: 'req-1',
    };
    const sent = await request(a.app)
      .post('/liana/v1/record-changes')
      .set('forest-secret-key', secret)
      .send(change);
    expect(sent.status).toBe(204);
    expect((await admin.waitFor((e) => e.event === 'record-changed')).data).toEqual(change);
    const bad = await request(a.app)
      .post('/liana/v1/record-changes')
      .set('forest-secret-key', secret)
      .send({ ...change, operation: 'explode' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('operation');
    const stranger = await request(a.app)
      .post('/liana/v1/record-changes')
      .set('forest-secret-key', secret)
      .send({ ...change, userId: other.admin.id });
    expect(stranger.status).toBe(400);
    expect((await request(a.app).post('/liana/v1/record-changes').send(change)).status).toBe(401);
    // The editor (no role) sees no record of the collection, so no write to it either.
    await new Promise((done) => setTimeout(done, 300));
    expect(editor.events.map((e) => e.event)).toEqual(['ready']);
  });
});

describe('presence', () => {
  it('tells the others on the record who has it open, until it is closed or expires', async () => {
    const watcher = await stream(b, originB, reviewer.id);
    const editor = await stream(a, originA, shop.editor.id);
    const open = { collection: 'orders', recordId: '7' };
    expect((await as(shop.admin.id).put(`${env()}/presence`, open)).status).toBe(204);
    const opened1 = await watcher.waitFor((e) => e.event === 'presence');
    expect(opened1.data).toEqual({ ...open, userIds: [shop.admin.id] });
    // A heartbeat on the same record announces nothing new.
    expect((await as(shop.admin.id).put(`${env()}/presence`, open)).status).toBe(204);
    expect((await as(shop.admin.id).delete(`${env()}/presence`)).status).toBe(204);
    const closed = await watcher.waitFor((e) => e.event === 'presence' && e.id !== opened1.id);
    expect(closed.data).toEqual({ ...open, userIds: [] });
    expect(watcher.events.filter((e) => e.event === 'presence')).toHaveLength(2);

    await as(reviewer.id).put(`${env()}/presence`, open);
    await a.knex('console_presence').update({ expires_at: new Date(Date.now() - 1000) });
    expect(await expirePresence(a.knex)).toBe(1);
    const expired = await watcher.waitFor(
      (e) =>
        e.event === 'presence' && (e.data.userIds as number[]).length === 0 && e.id !== closed.id,
    );
    expect(expired.data).toEqual({ ...open, userIds: [] });
    // The editor sees no record of `orders`: no presence on them either.
    expect(editor.events.map((e) => e.event)).toEqual(['ready']);
    const bad = await as(shop.admin.id).put(`${env()}/presence`, { collection: 'orders' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('recordId');
  });
});

describe('mentions and inbox', () => {
  it('refuses a mention of anyone who is not a member, naming them', async () => {
    const stranger = await note(shop.admin.id, `<p>@${other.admin.email} hi</p>`);
    expect(stranger.status).toBe(400);
    expect(stranger.body.message).toContain(`@${other.admin.email}`);
    const byId = await note(shop.admin.id, '<p>@99999999 hi</p>');
    expect(byId.status).toBe(400);
    expect(byId.body.message).toContain('@99999999');
  });

  it('fills the inbox of the mentioned member, counts unread, pages newest first, marks read', async () => {
    const editor = shop.editor.id;
    await as(editor).post(`${env()}/inbox/read-all`);
    const n1 = await note(shop.admin.id, `<p>@${editor} first</p>`);
    const msg = await as(shop.admin.id).post(`${env()}/notes/${n1.body.id}/messages`, {
      content: `<p>@${shop.editor.email.toUpperCase()} and @${reviewer.id} second</p>`,
    });
    expect(msg.status).toBe(201);
    expect((await as(editor).get(`${env()}/inbox/unread-count`)).body).toEqual({ unreadCount: 2 });
    expect(
      (await as(reviewer.id).get(`${env()}/inbox/unread-count`)).body.unreadCount,
    ).toBeGreaterThanOrEqual(1);
    const page1 = await as(editor).get(`${env()}/inbox?limit=1&unread=true`);
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ hasMore: true, unreadCount: 2 });
    expect(page1.body.data[0]).toMatchObject({
      object: 'inbox-item',
      kind: 'mention',
      note: { id: n1.body.id, collectionName: 'orders', recordId: '42' },
      by: { id: shop.admin.id },
      readAt: null,
    });
    const page2 = await as(editor).get(
      `${env()}/inbox?limit=1&unread=true&cursor=${page1.body.nextCursor}`,
    );
    expect(page2.body.data[0].id).toBeLessThan(page1.body.data[0].id);
    expect((await as(editor).post(`${env()}/inbox/${page1.body.data[0].id}/read`)).status).toBe(
      204,
    );
    expect((await as(editor).get(`${env()}/inbox/unread-count`)).body.unreadCount).toBe(1);
    // Someone else's item is not in this inbox.
    const theirs = await as(reviewer.id).get(`${env()}/inbox?limit=1`);
    expect((await as(editor).post(`${env()}/inbox/${theirs.body.data[0].id}/read`)).status).toBe(
      404,
    );
    expect((await as(editor).post(`${env()}/inbox/read-all`)).body).toEqual({ marked: 1 });
    expect((await as(editor).get(`${env()}/inbox/unread-count`)).body.unreadCount).toBe(0);
    // Another environment's inbox is its own.
    const staging = `/v1/project/${shop.project.name}/environment/Staging`;
    expect((await as(editor).get(`${staging}/inbox`)).body).toMatchObject({
      data: [],
      unreadCount: 0,
    });
  });

  it('refuses bad inbox parameters and non-members', async () => {
    expect((await as(shop.editor.id).get(`${env()}/inbox?limit=0`)).status).toBe(400);
    expect((await as(shop.editor.id).get(`${env()}/inbox?unread=maybe`)).status).toBe(400);
    expect((await as(shop.editor.id).post(`${env()}/inbox/abc/read`)).status).toBe(400);
    const outsider = await as(other.admin.id).get(`${env()}/inbox`);
    expect(outsider.status).toBe(404);
    expect(outsider.body.code).toBe('project_not_found');
  });

  it('suggests members of the project by the start of a name or email', async () => {
    const suggestions = `/v1/project/${shop.project.name}/member-suggestions`;
    const rita = await as(shop.editor.id).get(`${suggestions}?prefix=rit`);
    expect(rita.body.data).toEqual([
      {
        object: 'member-suggestion',
        id: reviewer.id,
        email: reviewer.email,
        name: 'Rita Reviewer',
      },
    ]);
    const surname = await as(shop.editor.id).get(`${suggestions}?prefix=Revi`);
    expect(surname.body.data.map((m: { id: number }) => m.id)).toEqual([reviewer.id]);
    const limited = await as(shop.editor.id).get(`${suggestions}?prefix=&limit=1`);
    expect(limited.body.data).toHaveLength(1);
    const wildcard = await as(shop.editor.id).get(`${suggestions}?prefix=%25`);
    expect(wildcard.body.data).toEqual([]);
    // The other project's admin is not suggested, and cannot search this project.
    const otherAdmin = await as(shop.editor.id).get(`${suggestions}?prefix=${other.admin.email}`);
    expect(otherAdmin.body.data).toEqual([]);
    expect((await as(other.admin.id).get(`${suggestions}?prefix=a`)).status).toBe(404);
    expect((await as(shop.editor.id).get(suggestions)).status).toBe(400);
  });
});
