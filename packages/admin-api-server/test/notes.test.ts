import { useTestDatabase } from '@canopy/test-databases';
import type { AdminApiServer } from '../src';
import { apiClient, type ApiClient } from './helpers/api-client';
import { seed, startTestServer, type Seed } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let api: ApiClient;
let s: Seed;
const notes = () => `/v1/project/${s.project.name}/environment/Production/notes`;
const write = () => s.tokens['notes:write'];
const read = () => s.tokens['notes:read'];

async function createNote(
  overrides: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return api.post(notes(), {
    token: write(),
    headers,
    body: {
      title: 'Refund?',
      recordId: '42',
      collectionName: 'orders',
      message: '<p>Check it</p>',
      ...overrides,
    },
  });
}

beforeAll(async () => {
  server = await startTestServer(db());
  api = apiClient(server.app);
  s = await seed(server);
});
afterAll(() => server.close());

describe('note writes', () => {
  it('creates a note with its first message, an ETag, a Location and a createNote activity log', async () => {
    const res = await createNote();
    expect(res.status).toBe(201);
    expect(res.headers.etag).toBe(`"note-${res.body.id}-v1"`);
    expect(res.headers.location).toBe(`${notes()}/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'note',
      title: 'Refund?',
      recordId: '42',
      collection: { object: 'collection', name: 'orders' },
      user: { object: 'user', id: s.admin.id },
      team: { object: 'team', name: 'Operations' },
      environment: { object: 'environment', name: 'Production' },
      messages: [{ object: 'note-message', content: '<p>Check it</p>', user: { id: s.admin.id } }],
    });
    expect(res.body.archivedAt).toBeUndefined();
    const logs = await api.get(
      `/v1/project/${s.project.name}/environment/Production/activity-logs?action=createNote&recordId=42`,
      { token: s.tokens.all },
    );
    expect(logs.body.data[0]).toMatchObject({
      type: 'write',
      action: 'createNote',
      recordIds: ['42'],
      user: { id: s.admin.id },
      collection: { name: 'orders' },
    });
  });

  it('sanitizes message HTML and refuses a message with nothing safe left', async () => {
    const res = await createNote({
      message:
        '<p onclick="steal()">Hi <a href="javascript:alert(1)">x</a><script>alert(1)</script><b>there</b></p>',
    });
    expect(res.status).toBe(201);
    expect(res.body.messages[0].content).toBe('<p>Hi <a>x</a><b>there</b></p>');
    const empty = await createNote({ message: '<script>alert(1)</script>' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      code: 'invalid_body',
      message: expect.stringContaining('"message"'),
    });
  });

  it.each([
    [{ title: undefined }, '"title" is required'],
    [{ recordId: '' }, '"recordId" must not be empty'],
    [{ extra: 1 }, '"extra" is not accepted'],
    [{ teamName: 'Nope' }, '"teamName"'],
  ])('rejects a bad create body %j', async (overrides, message) => {
    const res = await createNote(overrides);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
  });

  it('rejects a body that is not JSON', async () => {
    const res = await api.post(notes(), {
      token: write(),
      headers: { 'Content-Type': 'application/json' },
      body: '{"title":',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_body');
  });

  it('replays a create with the same Idempotency-Key instead of writing twice', async () => {
    const key = `create-${Date.now()}`;
    const first = await createNote({ recordId: 'idem' }, { 'Idempotency-Key': key });
    const again = await createNote({ recordId: 'idem' }, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    const count = await server.knex('notes').where({ record_id: 'idem' }).count({ n: '*' });
    expect(Number(count[0]!.n)).toBe(1);
    const reused = await createNote({ recordId: 'other' }, { 'Idempotency-Key': key });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
  });

  it('treats a claim abandoned by a crashed request as free after five minutes', async () => {
    const key = `abandoned-${Date.now()}`;
    const first = await createNote({ recordId: 'abandoned' }, { 'Idempotency-Key': key });
    await server
      .knex('idempotency_keys')
      .where({ key })
      .update({ response_status: null, response_body: null });
    const inProgress = await createNote({ recordId: 'abandoned' }, { 'Idempotency-Key': key });
    expect(inProgress.status).toBe(409);
    await server
      .knex('idempotency_keys')
      .where({ key })
      .update({ created_at: server.knex.raw("now() - interval '6 minutes'") });
    const retried = await createNote({ recordId: 'abandoned' }, { 'Idempotency-Key': key });
    expect(retried.status).toBe(201);
    expect(retried.body.id).not.toBe(first.body.id);
  });

  it('runs concurrent creates with one Idempotency-Key once', async () => {
    const key = `race-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        createNote({ recordId: 'race' }, { 'Idempotency-Key': key }),
      ),
    );
    for (const res of results) expect([201, 409]).toContain(res.status);
    const count = await server.knex('notes').where({ record_id: 'race' }).count({ n: '*' });
    expect(Number(count[0]!.n)).toBe(1);
  });

  it('stores all of 50 concurrent messages on one note', async () => {
    const note = await createNote({ recordId: 'busy' });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.post(`${notes()}/${note.body.id}/messages`, {
          token: write(),
          body: { content: `<p>m${i}</p>` },
        }),
      ),
    );
    expect(results.map((res) => res.status)).toEqual(Array(50).fill(201));
    const got = await api.get(`${notes()}/${note.body.id}`, { token: read() });
    expect(got.body.messages).toHaveLength(51);
    expect(new Set(got.body.messages.map((m: { content: string }) => m.content)).size).toBe(51);
    expect(got.headers.etag).toBe(`"note-${note.body.id}-v51"`);
    const logs = await server
      .knex('activity_logs')
      .where({ action: 'createMessage' })
      .whereRaw("'busy' = ANY(record_ids)");
    expect(logs).toHaveLength(50);
  });

  it('adds a message with an idempotency key once', async () => {
    const note = await createNote({ recordId: 'msg-idem' });
    const url = `${notes()}/${note.body.id}/messages`;
    const first = await api.post(url, {
      token: write(),
      body: { content: 'hello' },
      headers: { 'Idempotency-Key': 'm1' },
    });
    const again = await api.post(url, {
      token: write(),
      body: { content: 'hello' },
      headers: { 'Idempotency-Key': 'm1' },
    });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(
      (await api.get(`${notes()}/${note.body.id}`, { token: read() })).body.messages,
    ).toHaveLength(2);
  });

  it('updates the title with If-Match and refuses a stale ETag with 412', async () => {
    const note = await createNote({ recordId: 'etag' });
    const url = `${notes()}/${note.body.id}`;
    const updated = await api.patch(url, {
      token: write(),
      body: { title: 'New title' },
      headers: { 'If-Match': String(note.headers.etag) },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.title).toBe('New title');
    expect(updated.headers.etag).toBe(`"note-${note.body.id}-v2"`);
    expect(Date.parse(updated.body.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(note.body.updatedAt),
    );
    const stale = await api.patch(url, {
      token: write(),
      body: { title: 'Lost update' },
      headers: { 'If-Match': String(note.headers.etag) },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('precondition_failed');
    expect((await api.get(url, { token: read() })).body.title).toBe('New title');
    const nonsense = await api.patch(url, {
      token: write(),
      body: { title: 'x' },
      headers: { 'If-Match': '"whatever"' },
    });
    expect(nonsense.status).toBe(412);
  });

  it('archives and unarchives', async () => {
    const note = await createNote({ recordId: 'archive' });
    const url = `${notes()}/${note.body.id}`;
    const archived = await api.patch(url, { token: write(), body: { archived: true } });
    expect(archived.status).toBe(200);
    expect(archived.body.archivedAt).toEqual(expect.any(String));
    const unarchived = await api.patch(url, { token: write(), body: { archived: false } });
    expect(unarchived.body.archivedAt).toBeUndefined();
    expect((await api.patch(url, { token: write(), body: {} })).status).toBe(400);
  });

  it('deletes with If-Match, records deleteNote, then answers 404', async () => {
    const note = await createNote({ recordId: 'gone' });
    const url = `${notes()}/${note.body.id}`;
    expect(
      (await api.delete(url, { token: write(), headers: { 'If-Match': '"note-0-v1"' } })).status,
    ).toBe(412);
    const deleted = await api.delete(url, {
      token: write(),
      headers: { 'If-Match': String(note.headers.etag) },
    });
    expect(deleted.status).toBe(204);
    const missing = await api.get(url, { token: read() });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('note_not_found');
    expect((await api.delete(url, { token: write() })).status).toBe(404);
    const logs = await server
      .knex('activity_logs')
      .where({ action: 'deleteNote' })
      .whereRaw("'gone' = ANY(record_ids)");
    expect(logs).toHaveLength(1);
  });

  it('rejects query parameters on single-note routes', async () => {
    const note = await createNote({ recordId: 'query' });
    const res = await api.get(`${notes()}/${note.body.id}?expand=messages`, { token: read() });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('"expand" is not accepted');
  });

  it('rejects a malformed note id', async () => {
    const res = await api.get(`${notes()}/abc`, { token: read() });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('"noteId"');
  });

  it('attributes a note to the named team of its author', async () => {
    const res = await createNote({ recordId: 'team', teamName: 'Operations' });
    expect(res.body.team.name).toBe('Operations');
  });
});

describe('GET …/notes', () => {
  let list: Seed;
  let ids: number[];
  const url = () => `/v1/project/${list.project.name}/environment/Production/notes`;
  const T0 = Date.parse('2026-04-01T00:00:00.000Z');
  const at = (days: number) => new Date(T0 + days * 86_400_000);

  beforeAll(async () => {
    list = await seed(server);
    const support = (
      await server.knex('teams').where({ project_id: list.project.id, name: 'Support' }).first()
    ).id;
    const operations = (
      await server.knex('teams').where({ project_id: list.project.id, name: 'Operations' }).first()
    ).id;
    const rows = [
      {
        user_id: list.admin.id,
        team_id: operations,
        collection_name: 'orders',
        record_id: '1',
        created_at: at(0),
        updated_at: at(5),
        archived_at: null,
      },
      {
        user_id: list.editor.id,
        team_id: support,
        collection_name: 'customers',
        record_id: '2',
        created_at: at(1),
        updated_at: at(1),
        archived_at: at(2),
      },
      {
        user_id: list.admin.id,
        team_id: operations,
        collection_name: null,
        record_id: '3',
        created_at: at(2),
        updated_at: at(3),
        archived_at: at(4),
      },
    ];
    const inserted = await server
      .knex('notes')
      .insert(
        rows.map((row, i) => ({
          ...row,
          project_id: list.project.id,
          environment_id: list.production.id,
          title: `Note ${i}`,
        })),
      )
      .returning('id');
    ids = inserted.map((row: { id: number }) => row.id);
    await server.knex('note_messages').insert([
      { note_id: ids[0], user_id: list.admin.id, content: '<p>first</p>', created_at: at(0) },
      { note_id: ids[0], user_id: list.editor.id, content: '<p>second</p>', created_at: at(5) },
    ]);
  });

  const get = (query: string) => api.get(`${url()}${query}`, { token: list.tokens['notes:read'] });
  const idsOf = (res: { body: { data: { id: number }[] } }) => res.body.data.map((note) => note.id);

  it('lists notes by id descending with their messages in order', async () => {
    const res = await get('');
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([ids[2], ids[1], ids[0]]);
    expect(res.body.data[2].messages.map((m: { content: string }) => m.content)).toEqual([
      '<p>first</p>',
      '<p>second</p>',
    ]);
    expect(res.body.data[0].collection).toBeUndefined();
    expect(res.body.parameters).toEqual({
      projectName: list.project.name,
      environmentName: 'Production',
      limit: 10,
    });
  });

  it.each([
    ['userId', () => String(list.editor.id), () => [ids[1]]],
    ['userEmail', () => list.admin.email, () => [ids[2], ids[0]]],
    ['teamName', () => 'Support', () => [ids[1]]],
    ['collectionName', () => 'orders', () => [ids[0]]],
    ['recordId', () => '3', () => [ids[2]]],
    ['createdAt.gte', () => at(1).toISOString(), () => [ids[2], ids[1]]],
    ['createdAt.lt', () => at(1).toISOString(), () => [ids[0]]],
    ['updatedAt.gt', () => at(3).toISOString(), () => [ids[0]]],
    ['updatedAt.lte', () => at(3).toISOString(), () => [ids[2], ids[1]]],
    ['updatedAt.eq', () => at(1).toISOString(), () => [ids[1]]],
    ['archivedAt.lte', () => at(2).toISOString(), () => [ids[1]]],
    ['archivedAt.gt', () => at(2).toISOString(), () => [ids[2]]],
    ['archivedAt.gte', () => at(0).toISOString(), () => [ids[2], ids[1]]],
    ['archivedAt.eq', () => at(4).toISOString(), () => [ids[2]]],
    ['archivedAt.lt', () => at(9).toISOString(), () => [ids[2], ids[1]]],
  ])('filters by %s', async (name, value, expected) => {
    const res = await get(`?${name}=${encodeURIComponent(value())}`);
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual(expected());
  });

  it('paginates with nextCursor and with createdAt.lt', async () => {
    const first = await get('?limit=2');
    expect(first.body.hasMore).toBe(true);
    expect(idsOf(first)).toEqual([ids[2], ids[1]]);
    const second = await get(`?limit=2&cursor=${first.body.nextCursor}`);
    expect(idsOf(second)).toEqual([ids[0]]);
    expect(second.body.hasMore).toBe(false);
    expect(second.body.nextCursor).toBeNull();
    const oldest = first.body.data[1].createdAt;
    const byDate = await get(`?limit=2&createdAt.lt=${encodeURIComponent(oldest)}`);
    expect(idsOf(byDate)).toEqual([ids[0]]);
  });

  it('accepts limit 1 to 100 only', async () => {
    expect(idsOf(await get('?limit=1'))).toEqual([ids[2]]);
    expect((await get('?limit=100')).status).toBe(200);
    for (const limit of ['0', '101', 'ten']) {
      const res = await get(`?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('"limit"');
    }
  });

  it.each(['updatedAt.gte=soon', 'archivedAt.eq=2026-13-01T00:00:00Z', 'userEmail=nobody'])(
    'rejects %s naming the parameter',
    async (query) => {
      const res = await get(`?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(`"${query.split('=')[0]}"`);
    },
  );

  it('rejects action, which notes do not have', async () => {
    const res = await get('?action=read');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('"action"');
  });
});
