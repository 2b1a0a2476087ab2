import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import {
  createAgentTestClient,
  createServerSandbox,
  TEST_USER,
  type AgentTestClient,
  type ServerSandbox,
} from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/create-agent';
import { signSessionToken } from '../protocol/auth/session-token';
import type { SessionClaims } from '../operations/session-claims';
import { connectWithOAuth } from '../mcp/test-fixtures/mcp-oauth-client';

const ENV_SECRET = '5a'.repeat(32);
const AUTH_SECRET = 'audit-trail-auth-secret';
/** Its own schema per run (dropped after): the test database only cleans its own schema. */
const HISTORY = `history_${process.pid}_${Date.now().toString(36)}`;

type Row = {
  operation: string;
  recordId: string | null;
  actionName: string | null;
  correlationKey: string;
  userId: number | null;
  userEmail: string | null;
  previousValues: Record<string, unknown> | null;
  newValues: Record<string, unknown> | null;
  status: string;
};

/**
 * Record history on PostgreSQL, through REST and through `@canopy/testing`: rows for create,
 * update, delete and action runs (with the writes of action code under one correlation id),
 * redaction, renamed and hidden fields, the transaction (a failed write leaves no row), paging,
 * the record at a time, and the read right and scope of the caller.
 */
describe('audit trail on PostgreSQL', () => {
  // Registered before the test database's own hook, so that it runs while the database is open.
  afterAll(async () => {
    await db().knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [HISTORY]);
  });
  const db = useTestDatabase('postgres');
  let sandbox: ServerSandbox;
  let agent: Agent;
  let client: AgentTestClient;
  let base: string;

  const token = (user: {
    id: number;
    roleId: number;
    renderingId: number;
    permissionLevel: string;
  }) =>
    signSessionToken(
      {
        ...TEST_USER,
        id: user.id,
        email: `user${user.id}@canopy.test`,
        team: 'Operations',
        role: 'r',
        roleId: user.roleId,
        renderingId: user.renderingId,
        permissionLevel: user.permissionLevel,
        tags: {},
      } as SessionClaims,
      AUTH_SECRET,
    );
  let adminToken: string;

  const rest = async (path: string, bearer = adminToken, init: RequestInit = {}) => {
    const url = `${base}/forest${path}${path.includes('?') ? '&' : '?'}timezone=UTC`;
    const response = await fetch(url, {
      ...init,
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
        ...(init.headers as Record<string, string> | undefined),
      },
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of many shapes
      body: text ? (JSON.parse(text) as Record<string, any>) : null,
    };
  };

  beforeAll(async () => {
    await db().knex.raw(`
      CREATE TABLE accounts (
        id serial PRIMARY KEY, owner text NOT NULL, balance integer NOT NULL,
        pin text, region text NOT NULL DEFAULT 'EU', internal_note text,
        CONSTRAINT balance_positive CHECK (balance >= 0));
      INSERT INTO accounts (owner, balance, pin, region) VALUES
        ('Ada', 100, '1234', 'EU'), ('Bob', 50, '0000', 'US'), ('Cy', 10, '9999', 'EU');
      -- Checked at commit: a write that breaks it fails after its history rows were inserted.
      CREATE TABLE transfers (
        id serial PRIMARY KEY, amount integer NOT NULL,
        account_id integer NOT NULL REFERENCES accounts(id) DEFERRABLE INITIALLY DEFERRED);
      INSERT INTO transfers (amount, account_id) VALUES (5, 1);
    `);
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
      {
        id: 3,
        email: 'user3@canopy.test',
        firstName: 'No',
        lastName: 'Read',
        permissionLevel: 'user',
        roleId: 3,
      },
    ]);
    await sandbox.setRoles([
      { id: 1, name: 'Admin' },
      { id: 2, name: 'EU only' },
      { id: 3, name: 'Browse only', collections: { accounts: { readEnabled: false } } },
    ]);
    const schemaPath = join(mkdtempSync(join(tmpdir(), 'canopy-audit-')), '.canopy-schema.json');
    agent = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: sandbox.url,
      schemaPath,
      isProduction: false,
      logger: () => undefined,
      auditTrail: { redact: ['pin'], schema: HISTORY, table: 'record_history' },
    })
      .addDataSource(createSqlDataSource(db().url))
      .customizeCollection('accounts', (accounts) =>
        accounts
          .renameField('owner', 'holder')
          .removeField('internal_note')
          .addAction('Move 5 to Cy', {
            scope: 'Single',
            execute: async (context, resultBuilder) => {
              const [source] = await context.getRecords(['id', 'balance']);
              const balance = Number(source?.balance);
              await context.collection.update(context.filter, { balance: balance - 5 });
              await context.collection.update(
                { conditionTree: { field: 'id', operator: 'Equal', value: 3 } },
                { balance: 15 },
              );
              return resultBuilder.success('Moved');
            },
          })
          .addAction('Freeze', {
            scope: 'Bulk',
            execute: async (context, resultBuilder) => {
              // One update of several records: one row per record, before and after.
              await context.collection.update(context.filter, { balance: 0 });
              return resultBuilder.success('Frozen');
            },
          })
          .addAction('Drain then fail', {
            scope: 'Single',
            execute: async (context) => {
              await context.collection.update(context.filter, { balance: 0 });
              throw new Error('The bank is closed');
            },
          }),
      )
      .mountOnStandaloneServer(0, '127.0.0.1')
      .mountAiMcpServer();
    await agent.start();
    base = `http://127.0.0.1:${agent.standaloneServerPort}`;
    adminToken = token({ id: 1, roleId: 1, renderingId: 1, permissionLevel: 'admin' });
    client = await createAgentTestClient({
      agentEnvSecret: ENV_SECRET,
      agentAuthSecret: AUTH_SECRET,
      agentUrl: base,
      serverUrl: sandbox.url,
      agentSchemaPath: schemaPath,
    });
  }, 60_000);

  afterAll(async () => {
    await agent?.stop();
    await sandbox?.close();
  });

  it('creates its table in the given schema', async () => {
    const { rows } = await db().knex.raw(
      "SELECT table_schema, table_name FROM information_schema.tables WHERE table_name = 'record_history' AND table_schema = ?",
      [HISTORY],
    );
    expect(rows).toEqual([{ table_schema: HISTORY, table_name: 'record_history' }]);
  });

  it('records a create, an update and a delete with values before and after', async () => {
    const created = await rest('/accounts', adminToken, {
      method: 'POST',
      body: JSON.stringify({
        data: { type: 'accounts', attributes: { holder: 'Dee', balance: 70, pin: '4321' } },
      }),
    });
    expect(created.status).toBe(200);
    const id = created.body?.data.id as string;
    const createCorrelation = created.headers.get('x-forest-correlation-id');
    expect(
      (
        await rest(`/accounts/${id}`, adminToken, {
          method: 'PUT',
          body: JSON.stringify({ data: { type: 'accounts', attributes: { balance: 80 } } }),
        })
      ).status,
    ).toBe(200);
    expect((await rest(`/accounts/${id}`, adminToken, { method: 'DELETE' })).status).toBe(204);

    const history = await rest(`/_audit-trail/accounts/${id}`);
    expect(history.status).toBe(200);
    expect(history.body?.meta).toEqual({
      count: 3,
      availableUsers: [
        {
          id: 1,
          firstName: TEST_USER.firstName,
          lastName: TEST_USER.lastName,
          email: 'user1@canopy.test',
        },
      ],
    });
    const [deleted, updated, inserted] = history.body?.data as Row[];
    expect(inserted).toMatchObject({
      operation: 'create',
      recordId: id,
      correlationKey: createCorrelation,
      userId: 1,
      userEmail: 'user1@canopy.test',
      status: 'done',
      previousValues: {},
      newValues: { id: Number(id), holder: 'Dee', balance: 70, pin: '[redacted]', region: 'EU' },
    });
    expect(inserted?.newValues).not.toHaveProperty('internal_note');
    expect(inserted?.newValues).not.toHaveProperty('owner');
    expect(updated).toMatchObject({
      operation: 'update',
      previousValues: { balance: 70 },
      newValues: { balance: 80 },
    });
    expect(deleted).toMatchObject({
      operation: 'delete',
      previousValues: { balance: 80, holder: 'Dee' },
      newValues: {},
    });
    const stored = await db().knex(`${HISTORY}.record_history`).where({ record_id: id });
    expect(
      stored
        .map(
          (row: { before_values: string | null; after_values: string | null }) =>
            `${row.before_values ?? ''}${row.after_values ?? ''}`,
        )
        .join(''),
    ).not.toContain('4321');
    const oldestFirst = await rest(`/_audit-trail/accounts/${id}?sort=timestamp&page[number]=1`);
    expect(oldestFirst.body?.data.map((row: Row) => row.operation)).toEqual([
      'create',
      'update',
      'delete',
    ]);
    expect(oldestFirst.body?.meta).toEqual({ count: 3 });
  });

  it('leaves no row when the write fails, and the change when it succeeds', async () => {
    const before = await db().knex(`${HISTORY}.record_history`).count({ n: '*' });
    const failed = await rest('/accounts/2', adminToken, {
      method: 'PUT',
      body: JSON.stringify({ data: { type: 'accounts', attributes: { balance: -1 } } }),
    });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.status).toBeLessThan(500);
    expect(await db().knex(`${HISTORY}.record_history`).count({ n: '*' })).toEqual(before);
    expect((await db().knex('accounts').where({ id: 2 }).first()).balance).toBe(50);
  });

  it('leaves no row when the transaction fails at commit, after its history rows were inserted', async () => {
    const history = () =>
      db().knex(`${HISTORY}.record_history`).where({ collection_name: 'transfers' });
    expect(await history()).toEqual([]);
    // The foreign key is deferred: PostgreSQL refuses account 999 only when the transaction
    // commits, that is after the update and its history row were both written in it.
    const failed = await rest('/transfers/1', adminToken, {
      method: 'PUT',
      body: JSON.stringify({ data: { type: 'transfers', attributes: { account_id: 999 } } }),
    });
    expect(failed.status).toBe(400);
    expect(failed.body?.errors[0]).toMatchObject({
      name: 'ValidationError',
      detail: expect.stringContaining(
        'The database refused to commit the change: it violates constraint "transfers_account_id_fkey"',
      ),
    });
    expect(JSON.stringify(failed.body)).not.toContain('999');
    expect(await history()).toEqual([]);
    expect((await db().knex('transfers').where({ id: 1 }).first()).account_id).toBe(1);

    // The same write with a valid account commits, and then has its row.
    const done = await rest('/transfers/1', adminToken, {
      method: 'PUT',
      body: JSON.stringify({ data: { type: 'transfers', attributes: { account_id: 2 } } }),
    });
    expect(done.status).toBe(200);
    expect(await history()).toHaveLength(1);
  });

  it('gives every row of a bulk delete the correlation id of its request', async () => {
    const ids = (
      await db()
        .knex('accounts')
        .insert([
          { owner: 'Temp 1', balance: 1 },
          { owner: 'Temp 2', balance: 2 },
        ])
        .returning('id')
    ).map((row: { id: number }) => String(row.id));
    const answer = await rest('/accounts', adminToken, {
      method: 'DELETE',
      body: JSON.stringify({
        data: {
          type: 'action-requests',
          attributes: {
            collection_name: 'accounts',
            ids,
            all_records: false,
            all_records_ids_excluded: [],
            all_records_subset_query: {},
          },
        },
      }),
    });
    expect(answer.status).toBe(204);
    const key = answer.headers.get('x-forest-correlation-id') as string;
    expect(key).toBeTruthy();
    const rows = await client.auditTrail.correlation(
      key,
      { collection: 'accounts', recordId: ids[0] as string },
      { acrossRecords: true },
    );
    expect(rows.map((row) => [row.operation, row.recordId, row.previousValues?.holder])).toEqual(
      expect.arrayContaining([
        ['delete', ids[0], 'Temp 1'],
        ['delete', ids[1], 'Temp 2'],
      ]),
    );
    expect(rows).toHaveLength(2);
  });

  it('rolls the change back when its history row cannot be written', async () => {
    const table = `${HISTORY}.record_history`;
    await db().knex.raw('ALTER TABLE ?? RENAME TO record_history_away', [table]);
    try {
      const answer = await rest('/accounts/3', adminToken, {
        method: 'PUT',
        body: JSON.stringify({ data: { type: 'accounts', attributes: { balance: 11 } } }),
      });
      expect(answer.status).toBe(500);
      expect(JSON.stringify(answer.body)).not.toContain('record_history');
    } finally {
      await db().knex.raw('ALTER TABLE ?? RENAME TO record_history', [
        `${HISTORY}.record_history_away`,
      ]);
    }
    expect((await db().knex('accounts').where({ id: 3 }).first()).balance).toBe(10);
  });

  it('records an action run and the writes of its code under one correlation id, in one transaction', async () => {
    const action = await client.collection('accounts').action('Move 5 to Cy', { recordId: 1 });
    await action.execute();
    const { rows } = await client.auditTrail.history('accounts', 1);
    const run = rows.find((row) => row.operation === 'action');
    expect(run).toMatchObject({
      actionName: 'Move 5 to Cy',
      recordId: '1',
      previousValues: {},
      newValues: { type: 'Success', message: 'Moved' },
    });
    const together = await client.auditTrail.correlation(
      run?.correlationKey as string,
      { collection: 'accounts', recordId: 1 },
      { acrossRecords: true },
    );
    expect(
      together.map((row) => [row.operation, row.recordId, row.newValues?.balance ?? null]),
    ).toEqual([
      ['action', '1', null],
      ['update', '1', 95],
      ['update', '3', 15],
    ]);
    const many = await rest('/_audit-trail/correlations', adminToken, {
      method: 'POST',
      body: JSON.stringify({
        collection: 'accounts',
        recordId: '1',
        correlationKeys: [run?.correlationKey, 'unknown-key'],
        acrossRecords: true,
      }),
    });
    expect(many.body?.data).toHaveLength(3);
    const missing = await rest('/_audit-trail/correlations?recordId=1&correlationKeys=a');
    expect(missing.status).toBe(400);
    expect(missing.body?.errors[0].detail).toBe('Missing collection');
  });

  it('gives one correlation id to a bulk action and its update of several records', async () => {
    const ids = (
      await db()
        .knex('accounts')
        .insert([
          { owner: 'Bulk 1', balance: 7 },
          { owner: 'Bulk 2', balance: 8 },
        ])
        .returning('id')
    ).map((row: { id: number }) => row.id);
    const action = await client.collection('accounts').action('Freeze', { recordIds: ids });
    await action.execute();
    const { rows } = await client.auditTrail.history('accounts', ids[0] as number);
    const key = rows[0]?.correlationKey as string;
    const together = await client.auditTrail.correlation(
      key,
      { collection: 'accounts', recordId: ids[0] as number },
      { acrossRecords: true },
    );
    const summary = together.map((row) => [
      row.operation,
      row.recordId,
      row.actionName,
      row.previousValues?.balance ?? null,
      row.newValues?.balance ?? null,
    ]);
    expect(summary).toHaveLength(4);
    expect(summary).toEqual(
      expect.arrayContaining([
        ['action', String(ids[0]), 'Freeze', null, null],
        ['action', String(ids[1]), 'Freeze', null, null],
        ['update', String(ids[0]), null, 7, 0],
        ['update', String(ids[1]), null, 8, 0],
      ]),
    );
  });

  it('pages and filters a history, and answers the record as it was at a time', async () => {
    const t0 = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await client.collection('accounts').update(2, { balance: 60 });
    const t1 = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await client.collection('accounts').update(2, { balance: 70, holder: 'Bobby' });
    // Before its first recorded change, the record was as that change found it.
    expect(await client.auditTrail.state('accounts', 2, t0)).toMatchObject({
      balance: 50,
      holder: 'Bob',
    });
    expect(await client.auditTrail.state('accounts', 2, t1)).toMatchObject({
      balance: 60,
      holder: 'Bob',
    });
    expect(await client.auditTrail.state('accounts', 2, new Date())).toMatchObject({
      balance: 70,
      holder: 'Bobby',
    });
    const first = await client.auditTrail.history('accounts', 2, { page: { size: 1 } });
    const second = await client.auditTrail.history('accounts', 2, {
      page: { size: 1, number: 2 },
    });
    expect(first.total).toBe(2);
    expect([first.rows[0]?.newValues?.balance, second.rows[0]?.newValues?.balance]).toEqual([
      70, 60,
    ]);
    expect((await client.auditTrail.history('accounts', 2, { fields: ['holder'] })).total).toBe(1);
    expect((await client.auditTrail.history('accounts', 2, { search: 'bobby' })).total).toBe(1);
    expect((await client.auditTrail.history('accounts', 2, { userIds: [2] })).total).toBe(0);
    expect(
      (await client.auditTrail.history('accounts', 2, { startDate: t1.toISOString() })).total,
    ).toBe(1);
    // Invalid pages fall back to the defaults (protocol §13.1).
    expect((await rest('/_audit-trail/accounts/2?page[size]=1000')).body?.data).toHaveLength(2);

    const noAt = await rest('/_audit-trail/accounts/2/state');
    expect(noAt.status).toBe(400);
    expect(noAt.body?.errors[0].detail).toBe('Missing "at" query parameter');
    const badDate = await rest('/_audit-trail/accounts/2?startDate=yesterday');
    expect(badDate.status).toBe(400);
    expect(badDate.body?.errors[0].detail).toMatch(/^Invalid startDate 'yesterday'/);
    const before = await rest(`/_audit-trail/accounts/999/state?at=${t0.toISOString()}`);
    expect(before.status).toBe(404);
    expect(before.body?.errors[0].detail).toBe('Record did not exist at this timestamp');
    expect((await rest('/_audit-trail/nope/2')).status).toBe(404);
  });

  it('checks the read right and the scope like reading the record', async () => {
    await sandbox.setScope('accounts', { field: 'region', operator: 'Equal', value: 'EU' }, 2);
    const scoped = token({ id: 2, roleId: 2, renderingId: 2, permissionLevel: 'user' });
    expect((await rest('/_audit-trail/accounts/1', scoped)).status).toBe(200);
    const outside = await rest('/_audit-trail/accounts/2', scoped);
    expect(outside.status).toBe(404);
    expect(outside.body?.errors[0].detail).toBe('Record does not exists');
    expect(
      (await rest('/_audit-trail/accounts/2/state?at=2030-01-01T00:00:00Z', scoped)).status,
    ).toBe(404);

    const noRead = token({ id: 3, roleId: 3, renderingId: 3, permissionLevel: 'user' });
    expect((await rest('/_audit-trail/accounts/1', noRead)).status).toBe(403);
    const { rows } = await client.auditTrail.history('accounts', 1);
    const key = rows[0]?.correlationKey as string;
    expect(
      (await rest(`/_audit-trail/correlation/${key}?collection=accounts&recordId=1`, noRead))
        .status,
    ).toBe(403);
    expect((await rest('/_audit-trail/accounts/1')).status).toBe(200);
    expect((await fetch(`${base}/forest/_audit-trail/accounts/1?timezone=UTC`)).status).toBe(401);
  });

  it('records the writes of MCP tools like those of REST, as the user who logged in', async () => {
    const { client: mcp } = await connectWithOAuth(`${base}/mcp`);
    try {
      const answer = (await mcp.callTool({
        name: 'update',
        arguments: { collectionName: 'accounts', recordId: 3, attributes: { balance: 12 } },
      })) as { isError?: boolean; content: { text: string }[] };
      expect(answer.isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
    const { rows } = await client.auditTrail.history('accounts', 3);
    expect(rows[0]).toMatchObject({
      operation: 'update',
      userId: 1,
      previousValues: { balance: 15 },
      newValues: { balance: 12 },
    });
  });

  it('advertises canUseAuditTrail in the capabilities', async () => {
    const answer = await rest('/_internal/capabilities', adminToken, {
      method: 'POST',
      body: JSON.stringify({ collectionNames: [] }),
    });
    expect(answer.body?.agentCapabilities.canUseAuditTrail).toBe(true);
  });

  it('records an action that throws as action_failed, its writes rolled back', async () => {
    const before = (await db().knex('accounts').where({ id: 1 }).first()).balance;
    const action = await client.collection('accounts').action('Drain then fail', { recordId: 1 });
    await expect(action.execute()).rejects.toThrow();
    expect((await db().knex('accounts').where({ id: 1 }).first()).balance).toBe(before);
    const { rows } = await client.auditTrail.history('accounts', 1);
    expect(rows[0]).toMatchObject({ operation: 'action_failed', actionName: 'Drain then fail' });
    expect(rows.filter((row) => row.correlationKey === rows[0]?.correlationKey)).toHaveLength(1);
  });
});
