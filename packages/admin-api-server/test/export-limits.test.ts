import { request as httpRequest, type IncomingMessage } from 'node:http';
import { useTestDatabase } from '@canopy/test-databases';
import { insertActivityLogs, type AdminApiServer } from '../src';
import { neutralizeCsvCell } from '../src/http/csv';
import { runningQueries, seed, startTestServer, tokenFor, type Seed } from './helpers/test-server';

// Finding 2 of issue 17: ten exports whose readers pause took every database connection, and
// CSV cells could carry spreadsheet formulas.

const db = useTestDatabase('postgres');
const ROWS = 60_000;
const IDLE_SECONDS = 30;
let server: AdminApiServer;
let port: number;
let s: Seed;
let tokens: string[];

beforeAll(async () => {
  server = await startTestServer(db(), {
    exports: { maxConcurrent: 2, maxPerToken: 1, idleTimeoutSeconds: IDLE_SECONDS },
  });
  port = await server.listen(0, '127.0.0.1');
  s = await seed(server);
  const team = await server.knex('teams').where({ project_id: s.project.id }).first('id');
  // Enough rows that an export cannot fit in the socket buffers of a reader that pauses.
  await server.knex.raw(
    `INSERT INTO activity_logs (project_id, environment_id, user_id, team_id, collection_name, type,
       action, label, record_ids, created_at, chain_seq, previous_hash, hash)
     SELECT ?, ?, ?, ?, 'orders', 'read', 'read', 'bulk ' || g, ARRAY[g::text],
            now() - g * interval '1 second', g, repeat('0', 64), md5(g::text) || md5(g::text)
     FROM generate_series(1, ?) AS g`,
    [s.project.id, s.production.id, s.admin.id, team.id, ROWS],
  );
  tokens = [];
  for (let i = 0; i < 10; i += 1) {
    tokens.push(await tokenFor(server, s.project, s.admin.id, ['activity_logs:read']));
  }
});
afterAll(() => server.close());

const base = () => `/v1/project/${s.project.name}/environment/Production`;

/** Starts an export and never reads its body; resolves with the response once headers arrive. */
function pausedExport(token: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path: `${base()}/activity-logs/export`,
      headers: { authorization: `Bearer ${token}` },
    });
    req.on('response', (res) => {
      res.pause();
      resolve(res);
    });
    req.on('error', reject);
    req.end();
  });
}

async function timedGet(path: string, token?: string) {
  const started = Date.now();
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: AbortSignal.timeout(20_000),
  });
  await response.arrayBuffer();
  return { status: response.status, ms: Date.now() - started };
}

it('bounds exports per server and per token, keeps health and lists answering, and cuts paused readers', async () => {
  const openCursors = () => runningQueries(server, '%from "activity_logs" as "al"%');
  const started = Date.now();
  const responses = await Promise.all(tokens.map((token) => pausedExport(token)));
  const statuses = responses.map((res) => res.statusCode);
  expect(statuses.filter((status) => status === 200)).toHaveLength(2);
  expect(statuses.filter((status) => status === 429)).toHaveLength(8);
  const refused = responses.find((res) => res.statusCode === 429)!;
  refused.resume();
  const chunks: Buffer[] = [];
  for await (const chunk of refused) chunks.push(chunk as Buffer);
  expect(JSON.parse(Buffer.concat(chunks).toString())).toEqual({
    code: 'rate_limited',
    message: expect.stringMatching(/exports, its limit/),
  });
  expect(refused.headers['retry-after']).toBe('5');

  // The same token again while its export runs: the per-token bound.
  const running = tokens[statuses.indexOf(200)]!;
  const again = await timedGet(`${base()}/activity-logs/export`, running);
  expect(again.status).toBe(429);

  // While the two paused exports hold their connections, health and every list answer at once,
  // several at a time.
  const reads = await Promise.all(
    Array.from({ length: 4 }, () => [
      timedGet('/health'),
      timedGet(`${base()}/activity-logs?limit=5`, tokens[9]),
      timedGet(`${base()}/notes`, s.tokens['notes:read']),
      timedGet(`/v1/project/${s.project.name}/admin-logs`, s.tokens['admin_logs:read']),
    ]).flat(),
  );
  expect(reads.map((read) => read.status)).toEqual(Array(16).fill(200));
  console.log(
    `export limits: 16 reads beside 2 paused exports, slowest ${Math.max(...reads.map((read) => read.ms))} ms`,
  );
  expect(Math.max(...reads.map((read) => read.ms))).toBeLessThan(20_000);
  // ...while the exports were still held (a paused client does not see its socket closed).
  expect(Date.now() - started).toBeLessThan(IDLE_SECONDS * 1000);
  expect(await openCursors()).toBe(2);

  // Readers that read nothing for the idle timeout are cut: their database cursors close and
  // their slots come back.
  let retry = await timedGet(`${base()}/activity-logs/export?recordId=none`, running);
  while (retry.status === 429) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    retry = await timedGet(`${base()}/activity-logs/export?recordId=none`, running);
  }
  expect(retry.status).toBe(200);
  expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_SECONDS * 1000 - 1000);
  const deadline = started + IDLE_SECONDS * 1000 + 5_000;
  while ((await openCursors()) > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(await openCursors()).toBe(0);
  const full = await fetch(`http://127.0.0.1:${port}${base()}/activity-logs/export`, {
    headers: { authorization: `Bearer ${running}` },
    signal: AbortSignal.timeout(30_000),
  });
  expect(full.status).toBe(200);
  expect((await full.text()).trimEnd().split('\n').length).toBe(ROWS);
}, 150_000);

describe('CSV formula injection', () => {
  it('prefixes and quotes cells that a spreadsheet would read as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(neutralizeCsvCell(`${start}1+1`)).toEqual({ value: `'${start}1+1`, quoted: true });
    }
    expect(neutralizeCsvCell('plain = text')).toEqual({ value: 'plain = text' });
    expect(neutralizeCsvCell('')).toEqual({ value: '' });
  });

  it('neutralizes labels of the CSV export', async () => {
    const other = await seed(server);
    const team = await server.knex('teams').where({ project_id: other.project.id }).first('id');
    await insertActivityLogs(server.knex, other.project.id, [
      {
        environmentId: other.production.id,
        userId: other.admin.id,
        teamId: team.id,
        type: 'write',
        action: 'update',
        collectionName: 'orders',
        label: '=HYPERLINK("http://evil.example","x")',
        recordIds: ['1'],
        createdAt: new Date(),
      },
    ]);
    const response = await fetch(
      `http://127.0.0.1:${port}/v1/project/${other.project.name}/environment/Production/activity-logs/export?format=csv`,
      { headers: { authorization: `Bearer ${other.tokens['activity_logs:read']}` } },
    );
    const [, row] = (await response.text()).trimEnd().split('\n');
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
  });
});
