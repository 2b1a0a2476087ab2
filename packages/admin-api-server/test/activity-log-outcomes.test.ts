import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { bootstrapProject, type AdminApiServer } from '../src';
import { issueMcpTokens } from '../src/auth/mcp-tokens';
import { reportedActivityLog } from './helpers/agent-fixtures';
import { startTestServer, TEST_KEYS, tokenFor } from './helpers/test-server';

// The outcome of an operation (status, and the reason of a failure as `errorMessage`) on both
// wires of platform protocol section 10: the agent's batch and the MCP status update; served on
// the activity-log items, filtered by `status`, and exported.

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let secret: string;
let userId: number;
let readToken: string;
let mcpToken: string;

beforeAll(async () => {
  server = await startTestServer(db());
  const result = await bootstrapProject(server.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'ada@example.com',
  });
  secret = result.secret!;
  userId = result.userId;
  const project = await server.knex('projects').first('id', 'name', 'sso_enabled');
  const environmentId = (await server.knex('environments').first('id')).id;
  const teamId = (await server.knex('teams').first('id')).id;
  readToken = await tokenFor(server, project, userId, ['activity_logs:read']);
  mcpToken = issueMcpTokens(TEST_KEYS, {
    userId,
    environmentId,
    renderingId: teamId,
    clientId: 'mcp-client',
    scope: 'mcp:read mcp:write',
  }).access_token;
});

afterAll(async () => {
  await server.close();
});

const send = (logs: unknown[]) =>
  request(server.app)
    .post('/liana/v1/activity-logs')
    .set('forest-secret-key', secret)
    .send({ logs })
    .expect(200);

const list = async (query = '') =>
  (
    await request(server.app)
      .get(`/v1/project/Shop/environment/Production/activity-logs?limit=100${query}`)
      .set('authorization', `Bearer ${readToken}`)
      .expect(200)
  ).body.data as Record<string, unknown>[];

const action = (id: string, overrides: Record<string, unknown>) =>
  reportedActivityLog(id, userId, { action: 'action', label: 'Refund', ...overrides });

describe("the agent's batch", () => {
  it('stores a failed action with its reason and serves both; a success has none', async () => {
    const answer = await send([
      action('ok-1', { status: 'completed' }),
      action('ko-1', { status: 'failed', errorMessage: 'The order "12" is already refunded.' }),
      reportedActivityLog('read-1', userId, { type: 'read', action: 'index' }),
    ]);
    expect(answer.body).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
    const byId = new Map((await list()).map((item) => [item.id, item]));
    expect(byId.get('ko-1')).toMatchObject({
      status: 'failed',
      errorMessage: 'The order "12" is already refunded.',
    });
    expect(byId.get('ok-1')).toMatchObject({ status: 'completed' });
    expect(byId.get('ok-1')).not.toHaveProperty('errorMessage');
    expect(byId.get('read-1')).not.toHaveProperty('status');
    // The item as the OpenAPI document describes it (additionalProperties: false there).
    expect(Object.keys(byId.get('ko-1')!).sort()).toEqual(
      [
        'object',
        'id',
        'type',
        'action',
        'label',
        'recordIds',
        'createdAt',
        'user',
        'environment',
        'team',
        'collection',
        'status',
        'errorMessage',
      ].sort(),
    );
  });

  it('filters by outcome: completed includes the logs reported after a success', async () => {
    expect((await list('&status=failed')).map((item) => item.id)).toEqual(['ko-1']);
    expect((await list('&status=completed')).map((item) => item.id).sort()).toEqual([
      'ok-1',
      'read-1',
    ]);
    const refused = await request(server.app)
      .get('/v1/project/Shop/environment/Production/activity-logs?status=broken')
      .set('authorization', `Bearer ${readToken}`)
      .expect(400);
    expect(JSON.stringify(refused.body)).toMatch(/status/);
  });

  it('exports the outcome and the reason as CSV columns', async () => {
    const answer = await request(server.app)
      .get('/v1/project/Shop/environment/Production/activity-logs/export?format=csv&status=failed')
      .set('authorization', `Bearer ${readToken}`)
      .expect(200);
    const [header, row] = answer.text.trim().split(/\r?\n/);
    expect(header!.endsWith(',status,errorMessage')).toBe(true);
    expect(row!.endsWith(',failed,"The order ""12"" is already refunded."')).toBe(true);
  });

  it('refuses, log by log, a reason that is too long, not text, or without a failure', async () => {
    const answer = await send([
      action('bad-1', { status: 'failed', errorMessage: 'x'.repeat(1001) }),
      action('bad-2', { status: 'failed', errorMessage: 42 }),
      action('bad-3', { status: 'completed', errorMessage: 'why?' }),
      action('bad-4', { status: 'done' }),
      action('good-5', { status: 'failed', errorMessage: 'y'.repeat(1000) }),
    ]);
    expect(answer.body.accepted).toBe(1);
    expect(answer.body.rejected).toEqual([
      {
        index: 0,
        id: 'bad-1',
        reason: 'logs[0].errorMessage must be a string of at most 1000 characters',
      },
      {
        index: 1,
        id: 'bad-2',
        reason: 'logs[1].errorMessage must be a string of at most 1000 characters',
      },
      {
        index: 2,
        id: 'bad-3',
        reason: 'logs[2].errorMessage must be sent with the status "failed" only',
      },
      { index: 3, id: 'bad-4', reason: 'logs[3].status must be completed, failed, null or absent' },
    ]);
  });
});

describe('the MCP status update', () => {
  const open = async () => {
    const created = await request(server.app)
      .post('/api/activity-logs-requests/mcp')
      .set('authorization', `Bearer ${mcpToken}`)
      .send({ type: 'write', action: 'action', status: 'pending', records: ['3'] })
      .expect(200);
    const { id, attributes } = created.body.data as { id: string; attributes: { index: string } };
    return {
      id,
      patch: (body: unknown) =>
        request(server.app)
          .patch(`/api/activity-logs-requests/${attributes.index}/${id}/status`)
          .set('authorization', `Bearer ${mcpToken}`)
          .send(body as object),
    };
  };

  it('keeps the errorMessage of a failed status and serves it; completed clears it', async () => {
    const { id, patch } = await open();
    await patch({ status: 'failed', errorMessage: 'Stock is too low.' }).expect(204);
    const item = (await list()).find((log) => log.id === id);
    expect(item).toMatchObject({ status: 'failed', errorMessage: 'Stock is too low.' });
    await patch({ status: 'completed' }).expect(204);
    expect((await list()).find((log) => log.id === id)).not.toHaveProperty('errorMessage');
  });

  it('answers 400 for a reason that is too long, not text, or beside completed', async () => {
    const { patch } = await open();
    for (const body of [
      { status: 'failed', errorMessage: 'z'.repeat(1001) },
      { status: 'failed', errorMessage: ['no'] },
      { status: 'completed', errorMessage: 'why?' },
    ]) {
      const answer = await patch(body).expect(400);
      expect(JSON.stringify(answer.body)).toMatch(/errorMessage must be/);
    }
  });
});
