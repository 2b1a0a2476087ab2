import { useTestDatabase } from '@canopy/test-databases';
import knexFactory, { type Knex } from 'knex';
import { EXPORT_CSV_COLUMNS } from '../src/routes/activity-logs';
import { insertActivityLogs, type AdminApiServer } from '../src';
import { apiClient, type ApiClient } from './helpers/api-client';
import { validateContractItem, validateFetchResponse } from './helpers/openapi-validator';
import { runningQueries, seed, startTestServer, type Seed } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let api: ApiClient;
let s: Seed;
const T0 = Date.parse('2026-06-01T00:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const base = () => `/v1/project/${s.project.name}/environment/Production/activity-logs`;
let ids: string[];

beforeAll(async () => {
  server = await startTestServer(db());
  api = apiClient(server.app);
  s = await seed(server);
  const team = (await server.knex('teams').where({ project_id: s.project.id }).first()).id;
  ids = await insertActivityLogs(
    server.knex,
    s.project.id,
    Array.from({ length: 300 }, (_, i) => ({
      environmentId: i % 3 === 0 ? s.staging.id : s.production.id,
      userId: s.admin.id,
      teamId: team,
      type: 'write' as const,
      action: 'update' as const,
      collectionName: 'orders',
      label: `update, "quoted" ${i}`,
      recordIds: [String(i)],
      createdAt: at(i),
    })),
  );
});
afterAll(() => server.close());

describe('integrity', () => {
  it('verifies the whole chain and a range of it', async () => {
    const all = await api.get(`${base()}/integrity`, { token: s.tokens['activity_logs:read'] });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({
      object: 'activityLogIntegrity',
      valid: true,
      checked: 300,
      fromSequence: 1,
      toSequence: 300,
      firstBrokenLink: null,
    });
    const range = await api.get(
      `${base()}/integrity?createdAt.gte=${encodeURIComponent(at(100).toISOString())}&createdAt.lt=${encodeURIComponent(at(200).toISOString())}`,
      { token: s.tokens.all },
    );
    expect(range.body).toMatchObject({
      valid: true,
      checked: 100,
      fromSequence: 101,
      toSequence: 200,
    });
  });

  it('reports the first broken link when a log is modified, then when one is deleted', async () => {
    await server.knex('activity_logs').where({ id: ids[150] }).update({ label: 'tampered' });
    const modified = await api.get(`${base()}/integrity`, { token: s.tokens.all });
    expect(modified.body.valid).toBe(false);
    expect(modified.body.checked).toBe(150);
    expect(modified.body.firstBrokenLink).toMatchObject({
      id: ids[150],
      sequence: 151,
      reason: 'content_modified',
    });
    const before = await api.get(
      `${base()}/integrity?createdAt.lt=${encodeURIComponent(at(150).toISOString())}`,
      { token: s.tokens.all },
    );
    expect(before.body.valid).toBe(true);

    await server.knex('activity_logs').where({ id: ids[150] }).delete();
    const deleted = await api.get(`${base()}/integrity`, { token: s.tokens.all });
    expect(deleted.body.firstBrokenLink).toMatchObject({ sequence: 151, reason: 'missing_link' });
  });

  it('reports a re-hashed forgery as a previous-hash mismatch on the next link', async () => {
    const row = await server.knex('activity_logs').where({ id: ids[250] }).first();
    await server
      .knex('activity_logs')
      .where({ id: ids[250] })
      .update({ hash: 'f'.repeat(64) });
    const res = await api.get(
      `${base()}/integrity?createdAt.gte=${encodeURIComponent(at(240).toISOString())}`,
      { token: s.tokens.all },
    );
    expect(res.body.firstBrokenLink).toMatchObject({ id: ids[250], reason: 'content_modified' });
    await server.knex('activity_logs').where({ id: ids[250] }).update({ hash: row.hash });
  });
});

describe('export', () => {
  it('streams NDJSON of the filtered range, newest first, each line a contract item', async () => {
    const res = await api.get(
      `${base()}/export?createdAt.gte=${encodeURIComponent(at(200).toISOString())}`,
      { token: s.tokens['activity_logs:read'] },
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(res.headers['content-disposition']).toContain('.ndjson');
    const lines = res.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(67); // 200..299 without the 33 staging ones (i % 3 === 0)
    for (const item of lines) validateContractItem('activityLog', item);
    expect(lines[0].recordIds).toEqual(['299']);
    expect(lines.at(-1).recordIds).toEqual(['200']);
  });

  it('streams CSV with a header row and quoted fields', async () => {
    const res = await api.get(`${base()}/export?format=csv&recordId=298`, { token: s.tokens.all });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const [header, row, ...rest] = res.text.trimEnd().split('\n');
    expect(header).toBe(EXPORT_CSV_COLUMNS.join(','));
    expect(rest).toEqual([]);
    expect(row).toContain('"update, ""quoted"" 298"');
    expect(row).toContain(s.admin.email);
  });

  it('rejects limit and unknown formats', async () => {
    expect((await api.get(`${base()}/export?limit=5`, { token: s.tokens.all })).status).toBe(400);
    const res = await api.get(`${base()}/export?format=xml`, { token: s.tokens.all });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('"format"');
  });
});

describe('export streaming', () => {
  let big: Seed;
  beforeAll(async () => {
    big = await seed(server);
    const team = (await server.knex('teams').where({ project_id: big.project.id }).first()).id;
    await insertActivityLogs(
      server.knex,
      big.project.id,
      Array.from({ length: 30_000 }, (_, i) => ({
        environmentId: big.production.id,
        userId: big.admin.id,
        teamId: team,
        type: 'read' as const,
        action: 'read' as const,
        label: `a label long enough to make each exported line a few hundred bytes ${i}`,
        recordIds: [String(i)],
      })),
    );
  });
  const exportPath = () =>
    `/v1/project/${big.project.name}/environment/Production/activity-logs/export`;

  it('reads from the database only as fast as the client reads, and stops when it leaves', async () => {
    const port = await server.listen(0, '127.0.0.1');
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}${exportPath()}`, {
      headers: { Authorization: `Bearer ${big.tokens.all}` },
      signal: controller.signal,
    });
    validateFetchResponse('get', exportPath(), response, undefined);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 500));

    // The client stopped reading: the export query must still be open (not read to the end).
    const running = () => runningQueries(server, '%from "activity_logs" as "al"%');
    expect(await running()).toBe(1);

    controller.abort();
    await reader.cancel().catch(() => undefined);
    for (let i = 0; i < 50 && (await running()) > 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await running()).toBe(0);
  });

  it('outlives the statement timeout when the client reads slowly', async () => {
    const strict = knexFactory({
      client: 'pg',
      connection: { ...(db().connection as Knex.PgConnectionConfig), statement_timeout: 300 },
      searchPath: [db().name],
      pool: { min: 0, max: 4 },
    });
    const slowServer = await startTestServer(db(), { database: { kind: 'knex', knex: strict } });
    try {
      const port = await slowServer.listen(0, '127.0.0.1');
      const response = await fetch(`http://127.0.0.1:${port}${exportPath()}`, {
        headers: { Authorization: `Bearer ${big.tokens.all}` },
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        text += decoder.decode(chunk.value, { stream: true });
        if (text.length < 200_000) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      validateFetchResponse('get', exportPath(), response, undefined);
      expect(text.trimEnd().split('\n')).toHaveLength(30_000);
    } finally {
      await slowServer.close();
      await strict.destroy();
    }
  });
});
