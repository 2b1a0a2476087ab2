import { DateTime } from 'luxon';

import { useTestDatabase } from '@canopy/test-databases';
import {
  createAgentTestClient,
  createServerSandbox,
  TEST_USER,
  type AgentTestClient,
  type ServerSandbox,
} from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { signSessionToken } from '../protocol/auth/session-token';
import type { SessionClaims } from '../operations/session-claims';
import { restClient } from '../http/test-fixtures/rest-client';
import { startAuditAgent } from './test-fixtures/audit-agent';

const ENV_SECRET = '3d'.repeat(32);
const AUTH_SECRET = 'audit-trail-wire-secret';

type Entry = {
  id: number;
  timestamp: string;
  operation: string;
  recordId: string;
  userId: number;
  actionName: string | null;
  correlationKey: string;
  previousValues: Record<string, unknown>;
  newValues: Record<string, unknown>;
};

/**
 * The record history routes as a client of the reference agent (1.96.0) sees them
 * (agent-http-protocol §13.1): parameter parsing, answer shapes, scope rules, the redaction mask,
 * action rows, and the correlation routes answering one record unless Canopy's `acrossRecords`.
 */
describe.each(['postgres', 'mariadb'] as const)('the audit-trail wire on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  let sandbox: ServerSandbox;
  let agent: Agent;
  let client: AgentTestClient;
  let base: string;

  const token = (id: number) =>
    signSessionToken(
      {
        ...TEST_USER,
        id,
        email: `user${id}@canopy.test`,
        firstName: id === 1 ? TEST_USER.firstName : 'Eve',
        lastName: id === 1 ? TEST_USER.lastName : 'Scoped',
        team: 'Operations',
        role: 'r',
        roleId: id,
        renderingId: id,
        permissionLevel: id === 1 ? 'admin' : 'user',
        tags: {},
      } as SessionClaims,
      AUTH_SECRET,
    );
  const admin = token(1);
  const scoped = token(2);

  const rest = (path: string, bearer = admin, init: { method?: string; body?: unknown } = {}) =>
    restClient(() => base, bearer)(init.method ?? 'GET', path, { body: init.body });
  const put = (id: number, attributes: Record<string, unknown>, bearer = admin) =>
    rest(`/parcels/${id}`, bearer, {
      method: 'PUT',
      body: { data: { type: 'parcels', id: String(id), attributes } },
    });
  const entries = async (path: string, bearer = admin) => {
    const answer = await rest(path, bearer);
    expect(answer.status).toBe(200);
    return answer.body as { data: Entry[]; meta: Record<string, unknown> };
  };

  beforeAll(async () => {
    const knex = db().knex;
    await knex.schema.createTable('parcels', (table) => {
      table.integer('id').primary();
      table.string('label', 40).notNullable();
      table.string('region', 8).notNullable();
      table.string('secret', 40).nullable();
    });
    await knex('parcels').insert([
      { id: 1, label: 'busy', region: 'EU', secret: 's1' },
      { id: 2, label: 'old', region: 'EU', secret: 's2' },
      { id: 3, label: 'untouched', region: 'EU', secret: 's3' },
      { id: 4, label: 'us gone', region: 'US', secret: 's4' },
      { id: 5, label: 'eu gone', region: 'EU', secret: 's5' },
      { id: 6, label: 'us here', region: 'US', secret: 's6' },
    ]);
    sandbox = await createServerSandbox(0);
    await sandbox.setUsers([
      { ...TEST_USER },
      {
        id: 2,
        email: 'user2@canopy.test',
        firstName: 'Eve',
        lastName: 'Scoped',
        permissionLevel: 'user',
        roleId: 2,
      },
    ]);
    await sandbox.setRoles([
      { id: 1, name: 'Admin' },
      { id: 2, name: 'EU only' },
    ]);
    let schemaPath: string;
    ({ agent, base, schemaPath } = await startAuditAgent({
      databaseUrl: db().url,
      serverUrl: sandbox.url,
      secrets: { envSecret: ENV_SECRET, authSecret: AUTH_SECRET },
      auditTrail: { redact: ['secret'], table: `wire_history_${dialect}` },
      customize: (created) =>
        created.customizeCollection('parcels', (parcels) =>
          parcels
            .addAction('Ship', {
              scope: 'Single',
              form: [
                { label: 'note', type: 'String' },
                { label: 'secret', type: 'String' },
              ],
              execute: async (_context, resultBuilder) => resultBuilder.success('Shipped'),
            })
            .addAction('Notify', {
              scope: 'Global',
              execute: async (_context, resultBuilder) =>
                resultBuilder.webhook('https://bot:pw@hooks.test/notify?token=abc', 'POST', {
                  authorization: 'Bearer hidden',
                }),
            }),
        ),
    }));
    client = await createAgentTestClient({
      agentEnvSecret: ENV_SECRET,
      agentAuthSecret: AUTH_SECRET,
      agentUrl: base,
      serverUrl: sandbox.url,
      agentSchemaPath: schemaPath,
    });
    // 24 changes of parcel 1 by the admin, one by the scoped user.
    for (let index = 0; index < 24; index += 1) {
      expect((await put(1, { label: `busy ${index}` })).status).toBe(200);
    }
    expect((await put(1, { label: 'busy by eve' }, scoped)).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await sandbox?.close();
  });

  it('reads page[size] and page[number] as the reference does (leading digits, size capped at 100)', async () => {
    expect((await entries('/_audit-trail/parcels/1?page[size]=500')).data).toHaveLength(25);
    expect((await entries('/_audit-trail/parcels/1?page[size]=3abc')).data).toHaveLength(3);
    expect((await entries('/_audit-trail/parcels/1?page[size]=0')).data).toHaveLength(20);
    const second = await entries('/_audit-trail/parcels/1?page[size]=10&page[number]=2x');
    const third = await entries('/_audit-trail/parcels/1?page[size]=10&page[number]=3');
    expect(second.data).toHaveLength(10);
    expect(third.data).toHaveLength(5);
    expect(second.data[0]?.newValues).toEqual({ label: 'busy 14' });
  });

  it('drops the non-numeric userIds tokens, and lists the authors the filters keep', async () => {
    expect((await entries('/_audit-trail/parcels/1?userIds=abc')).meta.count).toBe(25);
    expect((await entries('/_audit-trail/parcels/1?userIds=2,abc,1.5')).meta.count).toBe(1);
    const firstFetch = await entries('/_audit-trail/parcels/1?userIds=2');
    expect(firstFetch.meta).toEqual({
      count: 1,
      availableUsers: [{ id: 2, firstName: 'Eve', lastName: 'Scoped', email: 'user2@canopy.test' }],
    });
    expect((await entries('/_audit-trail/parcels/1?page[number]=1')).meta).toEqual({ count: 25 });
  });

  it('takes a date-time with a space, and an end minute as inclusive, in the request time zone', async () => {
    const [newest] = (await entries('/_audit-trail/parcels/1?page[size]=1')).data;
    const local = DateTime.fromISO(newest!.timestamp).setZone('Asia/Kolkata');
    const minute = local.toFormat('yyyy-LL-dd HH:mm');
    const upTo = await entries(
      `/_audit-trail/parcels/1?timezone=Asia/Kolkata&endDate=${encodeURIComponent(minute)}`,
    );
    expect(upTo.data[0]?.id).toBe(newest!.id);
    const from = await entries(
      `/_audit-trail/parcels/1?timezone=Asia/Kolkata&startDate=${encodeURIComponent(
        local.plus({ minutes: 1 }).toFormat('yyyy-LL-dd HH:mm'),
      )}`,
    );
    expect(from.meta.count).toBe(0);
    const badZone = await rest('/_audit-trail/parcels/1?timezone=Mars/Base&startDate=2024-01-01');
    expect(badZone.status).toBe(400);
  });

  it('matches search against the values and names a row has, not its empty ones', async () => {
    expect((await entries('/_audit-trail/parcels/1?search=null')).meta.count).toBe(0);
    expect((await entries('/_audit-trail/parcels/1?search=EVE')).meta.count).toBe(1);
  });

  it('answers {} for a side without values, and the reference mask for redacted ones', async () => {
    const created = await rest('/parcels', admin, {
      method: 'POST',
      body: {
        data: { type: 'parcels', attributes: { id: 7, label: 'new', region: 'EU', secret: 'x' } },
      },
    });
    expect(created.status).toBe(200);
    expect((await rest('/parcels/7', admin, { method: 'DELETE' })).status).toBe(204);
    const { data } = await entries('/_audit-trail/parcels/7?sort=timestamp');
    expect(data.map((entry) => [entry.operation, entry.previousValues, entry.newValues])).toEqual([
      ['create', {}, { id: 7, label: 'new', region: 'EU', secret: '[redacted]' }],
      ['delete', { id: 7, label: 'new', region: 'EU', secret: '[redacted]' }, {}],
    ]);
  });

  it('records an action with its submitted form and a summary of its answer', async () => {
    const ship = await client.collection('parcels').action('Ship', { recordId: 3 });
    await ship.setFields({ note: 'fragile', secret: 'hunter2' });
    await ship.execute();
    const [run] = (await entries('/_audit-trail/parcels/3')).data;
    expect(run).toMatchObject({
      operation: 'action',
      actionName: 'Ship',
      recordId: '3',
      previousValues: { note: 'fragile', secret: '[redacted]' },
      newValues: { type: 'Success', message: 'Shipped' },
    });

    const notify = await client.collection('parcels').action('Notify');
    await notify.execute();
    const rows = (await db().knex(`wire_history_${dialect}`).where({ action_name: 'Notify' })) as {
      correlation_id: string;
    }[];
    const key = rows[0]!.correlation_id;
    const across = await rest(
      `/_audit-trail/correlations?collection=parcels&recordId=3&acrossRecords=true&correlationKeys=${key}`,
    );
    expect(across.body?.data).toEqual([
      expect.objectContaining({
        operation: 'action',
        recordId: '',
        actionName: 'Notify',
        newValues: { type: 'Webhook', method: 'POST', url: 'https://hooks.test/notify' },
      }),
    ]);
  });

  it('answers a state before the first change, and as it is now when nothing changed it', async () => {
    const before = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await put(2, { label: 'renamed' })).status).toBe(200);
    const then = await rest(`/_audit-trail/parcels/2/state?at=${before.toISOString()}`);
    expect(then.status).toBe(200);
    expect(then.body?.data).toMatchObject({ id: 2, label: 'old', region: 'EU' });
    const now = await rest(`/_audit-trail/parcels/3/state?at=${new Date().toISOString()}`);
    expect(now.status).toBe(200);
    expect(now.body?.data).toMatchObject({ id: 3, label: 'untouched', region: 'EU' });
  });

  it('lets a scoped user read a deleted record, withholding a last state outside the scope', async () => {
    await sandbox.setScope('parcels', { field: 'region', operator: 'Equal', value: 'EU' }, 2);
    expect((await rest('/parcels/4', admin, { method: 'DELETE' })).status).toBe(204);
    expect((await rest('/parcels/5', admin, { method: 'DELETE' })).status).toBe(204);

    const usGone = await entries('/_audit-trail/parcels/4', scoped);
    expect(usGone.data.map((entry) => [entry.operation, entry.previousValues])).toEqual([
      ['delete', {}],
    ]);
    const euGone = await entries('/_audit-trail/parcels/5', scoped);
    expect(euGone.data[0]?.previousValues).toMatchObject({ label: 'eu gone', region: 'EU' });
    const key = usGone.data[0]!.correlationKey;
    const correlation = await rest(
      `/_audit-trail/correlation/${key}?collection=parcels&recordId=4`,
      scoped,
    );
    expect(correlation.status).toBe(200);
    expect(correlation.body?.data).toHaveLength(1);

    const here = await rest('/_audit-trail/parcels/6', scoped);
    expect(here.status).toBe(404);
    expect(here.body?.errors[0].detail).toBe('Record does not exists');
    const hereState = await rest(
      `/_audit-trail/parcels/6/state?at=${new Date().toISOString()}`,
      scoped,
    );
    expect(hereState.status).toBe(404);
    expect(hereState.body?.errors[0].detail).toBe('Record did not exist at this timestamp');
  });

  it("answers a correlation's entries of the record named, every record only on request", async () => {
    const answer = await rest('/parcels', admin, {
      method: 'DELETE',
      body: {
        data: {
          type: 'action-requests',
          attributes: {
            collection_name: 'parcels',
            ids: ['1', '2'],
            all_records: false,
            all_records_ids_excluded: [],
            all_records_subset_query: {},
          },
        },
      },
    });
    expect(answer.status).toBe(204);
    const [deleted] = (await entries('/_audit-trail/parcels/1?page[size]=1')).data;
    const key = deleted!.correlationKey;
    const one = await rest(`/_audit-trail/correlation/${key}?collection=parcels&recordId=1`);
    expect(one.body?.data.map((entry: Entry) => entry.recordId)).toEqual(['1']);
    const all = await rest(
      `/_audit-trail/correlation/${key}?collection=parcels&recordId=1&acrossRecords=true`,
    );
    expect(all.body?.data.map((entry: Entry) => entry.recordId).sort()).toEqual(['1', '2']);

    // POST: a body list wins; anything else falls back to the query; long keys find nothing.
    const posted = await rest(`/_audit-trail/correlations?correlationKeys=${key}`, admin, {
      method: 'POST',
      body: { collection: 'parcels', recordId: '2', correlationKeys: 'not-a-list' },
    });
    expect(posted.status).toBe(200);
    expect(posted.body?.data.map((entry: Entry) => entry.recordId)).toEqual(['2']);
    const long = await rest(`/_audit-trail/correlations?collection=parcels&recordId=2`, admin, {
      method: 'POST',
      body: { correlationKeys: ['k'.repeat(80), ''] },
    });
    expect(long.status).toBe(200);
    expect(long.body?.data).toEqual([]);
  });
});
