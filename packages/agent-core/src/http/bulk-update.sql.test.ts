import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import { createServerSandbox, TEST_USER, type ServerSandbox } from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/create-agent';
import { signSessionToken } from '../protocol/auth/session-token';
import type { SessionClaims } from '../operations/session-claims';

const ENV_SECRET = '7c'.repeat(32);
const AUTH_SECRET = 'bulk-update-auth-secret';

/** Rendering 2 sees the EU orders only; role 2 may not edit. */
const SCOPED_RENDERING = 2;
const READ_ONLY_ROLE = 2;

const ORDERS = [
  { id: 1, status: 'late', total: 120, region: 'EU' },
  { id: 2, status: 'paid', total: 40, region: 'US' },
  { id: 3, status: 'late', total: 15, region: 'EU' },
  { id: 4, status: 'late', total: 300, region: 'US' },
  { id: 5, status: 'late', total: 7, region: 'EU' },
  { id: 6, status: 'new', total: 60, region: 'EU' },
];

function token(user: { id: number; roleId: number; renderingId: number }): string {
  return signSessionToken(
    {
      ...TEST_USER,
      id: user.id,
      team: 'Operations',
      role: 'r',
      roleId: user.roleId,
      renderingId: user.renderingId,
      permissionLevel: 'user',
      tags: {},
    } as SessionClaims,
    AUTH_SECRET,
  );
}

/** The rows of the large case. */
const MANY = 20_000;

/** The patches the orders' `After Update` hook saw, in order. */
const updateHooks: Record<string, unknown>[] = [];

const ADMIN = token({ id: TEST_USER.id, roleId: 1, renderingId: 1 });
/** A member of the role without the edit right. */
const SUPPORT_USER = { ...TEST_USER, id: 2, email: 'support@canopy.test', roleId: READ_ONLY_ROLE };

/**
 * `PATCH /:collection` (agent-http-protocol §8.5.1) on `dialect`: the edit right and the scope,
 * the selection with its exclusions and subset query, the hooks (run once), the patch's
 * validation, one correlation in the record history, the activity log and record changes it
 * reports, and 20,000 records in one request.
 */
describe.each(['postgres', 'mariadb'] as const)('bulk update on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const state = {} as { sandbox: ServerSandbox; agent: Agent; base: string };

  beforeAll(async () => {
    const { knex } = db();
    await knex.raw(`
      CREATE TABLE orders (
        id integer PRIMARY KEY, status varchar(20) NOT NULL, total integer NOT NULL,
        region varchar(2) NOT NULL)`);
    await knex('orders').insert(ORDERS);
    await knex.raw('CREATE TABLE pings (id integer PRIMARY KEY, state varchar(10) NOT NULL)');
    const pings = Array.from({ length: MANY }, (_, index) => ({ id: index + 1, state: 'new' }));
    await knex.batchInsert('pings', pings, 2000);
    state.sandbox = await createServerSandbox(0);
    await state.sandbox.setUsers([{ ...TEST_USER }, SUPPORT_USER]);
    await state.sandbox.setRoles([
      { id: 1, name: 'Admin' },
      { id: READ_ONLY_ROLE, name: 'Support', collections: { orders: { editEnabled: false } } },
    ]);
    await state.sandbox.setScope(
      'orders',
      { field: 'region', operator: 'Equal', value: 'EU' },
      SCOPED_RENDERING,
    );
    const schemaPath = join(mkdtempSync(join(tmpdir(), 'canopy-bulk-')), '.canopy-schema.json');
    state.agent = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: state.sandbox.url,
      schemaPath,
      isProduction: false,
      logger: () => undefined,
      auditTrail: {},
    })
      .addDataSource(createSqlDataSource(db().url))
      .customizeCollection('orders', (orders) =>
        orders
          .addField('label', {
            columnType: 'String',
            dependencies: ['status'],
            getValues: (records) => records.map((record) => `#${String(record.status)}`),
          })
          .addHook('After', 'Update', (context) => {
            updateHooks.push(context.patch as Record<string, unknown>);
          }),
      )
      .mountOnStandaloneServer(0, '127.0.0.1');
    await state.agent.start();
    state.base = `http://127.0.0.1:${state.agent.standaloneServerPort}/forest`;
  }, 60_000);

  afterAll(async () => {
    await state.agent?.stop();
    await state.sandbox?.close();
  });

  beforeEach(async () => {
    // Each case starts from the same rows (the audit table keeps what the cases wrote).
    for (const order of ORDERS) {
      await db().knex('orders').where({ id: order.id }).update(order);
    }
  });

  const rest = async (method: string, path: string, body?: unknown, bearer = ADMIN) => {
    const response = await fetch(
      `${state.base}${path}${path.includes('?') ? '&' : '?'}timezone=UTC`,
      {
        method,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
    );
    const text = await response.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of many shapes
    const json: any = text === '' ? undefined : JSON.parse(text);
    return { status: response.status, headers: response.headers, body: json };
  };
  const patch = (
    attributes: Record<string, unknown>,
    selection: Record<string, unknown> | undefined,
    bearer = ADMIN,
  ) =>
    rest(
      'PATCH',
      '/orders',
      {
        data: { type: 'orders', attributes },
        ...(selection === undefined ? {} : { meta: { selection } }),
      },
      bearer,
    );
  const statuses = async () =>
    Object.fromEntries(
      (
        (await db().knex('orders').select('id', 'status').orderBy('id')) as {
          id: number;
          status: string;
        }[]
      ).map((row) => [row.id, row.status]),
    );
  const lateFilter = JSON.stringify({ field: 'status', operator: 'equal', value: 'late' });

  it('advertises the route in the capabilities', async () => {
    const answer = await rest('POST', '/_internal/capabilities', { collectionNames: [] });
    expect(answer.body.agentCapabilities.canUseBulkUpdate).toBe(true);
    expect(answer.body.agentCapabilities.canUseConsoleSegments).toBe(true);
  });

  it('updates all the records of a subset query but the excluded ones, and answers the count', async () => {
    const answer = await patch(
      { status: 'shipped' },
      {
        all_records: true,
        all_records_ids_excluded: ['3'],
        all_records_subset_query: { filters: lateFilter },
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ meta: { count: 3 } });
    expect(await statuses()).toEqual({
      1: 'shipped',
      2: 'paid',
      3: 'late',
      4: 'shipped',
      5: 'shipped',
      6: 'new',
    });
  });

  it('runs the update hooks once for the whole selection', async () => {
    const before = updateHooks.length;
    const answer = await patch({ total: 5 }, { all_records: true });
    expect(answer.body).toEqual({ meta: { count: 6 } });
    expect(updateHooks.slice(before)).toEqual([{ total: 5 }]);
  });

  it('updates exactly the listed ids', async () => {
    const answer = await patch({ status: 'paid', total: 1 }, { ids: ['1', '6'] });
    expect(answer.body).toEqual({ meta: { count: 2 } });
    const rows = await db().knex('orders').whereIn('id', [1, 6]).select('status', 'total');
    expect(rows).toEqual([
      { status: 'paid', total: 1 },
      { status: 'paid', total: 1 },
    ]);
    expect((await statuses())[2]).toBe('paid');
    expect((await statuses())[3]).toBe('late');
  });

  it("stays within the caller's scope, whatever the selection says", async () => {
    const scoped = token({ id: TEST_USER.id, roleId: 1, renderingId: SCOPED_RENDERING });
    const answer = await patch({ status: 'checked' }, { all_records: true }, scoped);
    expect(answer.body).toEqual({ meta: { count: 4 } });
    expect(await statuses()).toEqual({
      1: 'checked',
      2: 'paid',
      3: 'checked',
      4: 'late',
      5: 'checked',
      6: 'checked',
    });
    expect((await patch({ status: 'checked' }, { ids: ['2', '4'] }, scoped)).body).toEqual({
      meta: { count: 0 },
    });
    expect((await statuses())[4]).toBe('late');
  });

  it('refuses a role without the edit right, before reading the body', async () => {
    const support = token({ ...SUPPORT_USER, renderingId: 1 });
    const answer = await patch({ status: 'lost' }, { all_records: true }, support);
    expect(answer.status).toBe(403);
    expect(answer.body.errors[0]).toMatchObject({ name: 'ForbiddenError', status: 403 });
    // A malformed body changes nothing: the right is checked first.
    expect((await rest('PATCH', '/orders', { nonsense: true }, support)).status).toBe(403);
    expect(Object.values(await statuses())).not.toContain('lost');
  });

  it.each([
    ['an empty patch', {}, { all_records: true }, /The record data is empty/],
    ['an unknown field', { colour: 'red' }, { all_records: true }, /colour/],
    ['a read-only field', { label: 'x' }, { all_records: true }, /label/],
    ['a mistyped value', { total: 'lots' }, { all_records: true }, /total/],
    ['a primary key', { id: 9 }, { all_records: true }, /cannot write the primary key 'id'/],
    ['no selection', { status: 'x' }, undefined, /meta\.selection/],
    ['a selection without ids', { status: 'x' }, { all_records: false }, /ids/],
    [
      "a related tab's selection",
      { status: 'x' },
      {
        all_records: true,
        parent_collection_name: 'customers',
        parent_collection_id: '1',
        parent_association_name: 'orders',
      },
      /no parent record/,
    ],
  ])('refuses %s with a 400 naming the problem', async (_case, attributes, selection, detail) => {
    const answer = await patch(attributes, selection);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].status).toBe(400);
    expect(answer.body.errors[0].detail).toMatch(detail);
    expect(await statuses()).toEqual(
      Object.fromEntries(ORDERS.map((order) => [order.id, order.status])),
    );
  });

  it('records the update as one correlation in the history, one row per record', async () => {
    const answer = await patch(
      { status: 'archived' },
      { all_records: true, all_records_ids_excluded: ['2'] },
    );
    expect(answer.body).toEqual({ meta: { count: 5 } });
    const key = answer.headers.get('x-forest-correlation-id') as string;
    expect(key).toBeTruthy();
    const entries = await rest(
      'GET',
      `/_audit-trail/correlation/${encodeURIComponent(key)}?collection=orders&recordId=1&acrossRecords=true`,
    );
    expect(entries.status).toBe(200);
    const rows = entries.body.data as {
      recordId: string;
      operation: string;
      previousValues: { status: string };
      newValues: { status: string };
    }[];
    expect(rows.map((row) => row.recordId).sort()).toEqual(['1', '3', '4', '5', '6']);
    expect(new Set(rows.map((row) => row.operation))).toEqual(new Set(['update']));
    expect(rows.find((row) => row.recordId === '6')).toMatchObject({
      previousValues: { status: 'new' },
      newValues: { status: 'archived' },
    });
  });

  it('reports one activity log and one record change per record, with the fields written', async () => {
    const answer = await patch({ status: 'audited' }, { ids: ['3', '5'] });
    const correlationId = answer.headers.get('x-forest-correlation-id');
    const changes = await state.sandbox.waitForRecordChanges(
      (all) => all.filter((change) => change.correlationId === correlationId).length >= 2,
      { envSecret: ENV_SECRET },
    );
    expect(
      changes
        .filter((change) => change.correlationId === correlationId)
        .map(({ recordId, operation, fields }) => ({ recordId, operation, fields }))
        .sort((a, b) => a.recordId.localeCompare(b.recordId)),
    ).toEqual([
      { recordId: '3', operation: 'update', fields: ['status'] },
      { recordId: '5', operation: 'update', fields: ['status'] },
    ]);
    // The earlier cases updated records 3 and 5 too: this one is the log of exactly these two.
    const isThisLog = (log: { action: string; recordIds: string[] }) =>
      log.action === 'update' && [...log.recordIds].sort().join() === '3,5';
    const logs = await state.sandbox.waitForActivityLogs((all) => all.some(isThisLog), {
      envSecret: ENV_SECRET,
    });
    expect(logs.filter(isThisLog)).toEqual([
      expect.objectContaining({ type: 'write', collectionName: 'orders', userId: TEST_USER.id }),
    ]);
  });

  it(`updates ${MANY} records in one request, with bounded reports`, async () => {
    const started = Date.now();
    const answer = await rest('PATCH', '/pings', {
      data: { type: 'pings', attributes: { state: 'seen' } },
      meta: { selection: { all_records: true, all_records_ids_excluded: ['7'] } },
    });
    const elapsed = Date.now() - started;
    expect(answer.body).toEqual({ meta: { count: MANY - 1 } });
    const byState = (await db()
      .knex('pings')
      .select('state')
      .count({ n: '*' })
      .groupBy('state')
      .orderBy('state')) as { state: string; n: number | string }[];
    expect(byState.map(({ state, n }) => [state, Number(n)])).toEqual([
      ['new', 1],
      ['seen', MANY - 1],
    ]);
    const key = answer.headers.get('x-forest-correlation-id') as string;
    const [history] = (await db()
      .knex('canopy_audit_trail')
      .where({ correlation_id: key })
      .count({ n: '*' })) as { n: number | string }[];
    expect(Number(history?.n)).toBe(MANY - 1);
    // The live view gets at most 1000 changes, not one per record.
    await state.sandbox.waitForRecordChanges(
      (all) => all.filter((change) => change.correlationId === key).length >= 1000,
      { envSecret: ENV_SECRET, timeoutMs: 20_000 },
    );
    const reported = state.sandbox
      .recordChanges(ENV_SECRET)
      .filter((change) => change.correlationId === key);
    expect(reported).toHaveLength(1000);
    // Generous on a shared machine: counting, the history's before and after reads, the write.
    expect(elapsed).toBeLessThan(30_000);
  }, 60_000);
});
