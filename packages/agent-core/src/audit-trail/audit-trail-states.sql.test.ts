import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import { createServerSandbox, TEST_USER, type ServerSandbox } from '@canopy/testing';
import { DateTime } from 'luxon';

import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/create-agent';
import { signSessionToken } from '../protocol/auth/session-token';
import type { SessionClaims } from '../operations/session-claims';
import { restClient } from '../http/test-fixtures/rest-client';
import { AuditTable } from './audit-store';

const ENV_SECRET = '3d'.repeat(32);
const AUTH_SECRET = 'audit-trail-states-secret';

type State = {
  id: string;
  existed: boolean;
  changedSince: boolean;
  changedFields: string[];
  values: Record<string, unknown> | null;
};

const pause = () => new Promise((resolve) => setTimeout(resolve, 25));

/**
 * Canopy's `POST /_audit-trail/{c}/states` (agent-http-protocol §13.1): several records at one
 * time from their history, in one query — values then (renamed fields under their new names,
 * redacted ones masked), records created since, records whose history begins later, the caller's
 * scope (records outside it left out) and read right, bad input; and the correlation routes
 * checking the scope once per collection, not once per entry.
 */
describe.each(['postgres', 'mariadb'] as const)('records at a time on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  let sandbox: ServerSandbox;
  let agent: Agent;
  let base: string;
  /** `Before List` hooks run on accounts since the counter was last reset (scope checks). */
  let lists = 0;

  const token = (id: number, roleId: number, permissionLevel: string) =>
    signSessionToken(
      {
        ...TEST_USER,
        id,
        email: `user${id}@canopy.test`,
        team: 'Operations',
        role: 'r',
        roleId,
        renderingId: id,
        permissionLevel,
        tags: {},
      } as SessionClaims,
      AUTH_SECRET,
    );
  const admin = restClient(() => base, token(1, 1, 'admin'));
  const scoped = restClient(() => base, token(2, 2, 'user'));
  const noRead = restClient(() => base, token(3, 3, 'user'));

  const states = async (at: unknown, ids: unknown, client = admin) =>
    client('POST', '/_audit-trail/accounts/states', { body: { at, ids } });
  const statesOf = async (at: Date, ids: string[], client = admin): Promise<State[]> => {
    const answer = await states(at.toISOString(), ids, client);
    expect(answer.status).toBe(200);
    return answer.body.data as State[];
  };
  const put = (id: string, attributes: Record<string, unknown>, headers = {}) =>
    admin('PUT', `/accounts/${id}`, {
      body: { data: { type: 'accounts', id, attributes } },
      headers,
    });

  beforeAll(async () => {
    const knex = db().knex;
    await knex.schema.createTable('accounts', (table) => {
      table.increments('id').primary();
      table.string('owner', 40).notNullable();
      table.integer('balance').notNullable();
      table.string('pin', 8).nullable();
      table.string('region', 4).notNullable();
    });
    // Written before the agent runs: these records have no history yet.
    await knex('accounts').insert([
      { owner: 'Ada', balance: 100, pin: '1234', region: 'EU' },
      { owner: 'Bob', balance: 50, pin: '0000', region: 'US' },
      { owner: 'Cy', balance: 10, pin: '9999', region: 'EU' },
    ]);
    sandbox = await createServerSandbox(0);
    await sandbox.setUsers([
      { ...TEST_USER },
      { ...TEST_USER, id: 2, email: 'user2@canopy.test', permissionLevel: 'user', roleId: 2 },
      { ...TEST_USER, id: 3, email: 'user3@canopy.test', permissionLevel: 'user', roleId: 3 },
    ]);
    await sandbox.setRoles([
      { id: 1, name: 'Admin' },
      { id: 2, name: 'EU only' },
      { id: 3, name: 'Browse only', collections: { accounts: { readEnabled: false } } },
    ]);
    await sandbox.setScope('accounts', { field: 'region', operator: 'Equal', value: 'EU' }, 2);
    const schemaPath = join(mkdtempSync(join(tmpdir(), 'canopy-states-')), '.canopy-schema.json');
    agent = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: sandbox.url,
      schemaPath,
      isProduction: false,
      logger: () => undefined,
      auditTrail: { table: `states_history_${dialect}`, redact: ['pin'] },
    })
      .addDataSource(createSqlDataSource(db().url))
      .customizeCollection('accounts', (accounts) =>
        accounts.renameField('owner', 'holder').addHook('Before', 'List', () => {
          lists += 1;
        }),
      )
      .mountOnStandaloneServer(0, '127.0.0.1');
    await agent.start();
    base = `http://127.0.0.1:${agent.standaloneServerPort}`;
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await sandbox?.close();
  }, 60_000);

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('answers the values of several records at a time, in one query', async () => {
    const t0 = new Date();
    await pause();
    expect((await put('1', { balance: 110, pin: '1111' })).status).toBe(200);
    await pause();
    const t1 = new Date();
    await pause();
    expect((await put('1', { balance: 120, holder: 'Ada L.' })).status).toBe(200);
    await pause();
    const t2 = new Date();

    const statesAt = jest.spyOn(AuditTable.prototype, 'statesAt');
    const one = jest.spyOn(AuditTable.prototype, 'lastChangeAt');
    const [atStart, untouched] = await statesOf(t0, ['1', '2']);
    expect(statesAt).toHaveBeenCalledTimes(1);
    expect(one).not.toHaveBeenCalled();
    // Before its first recorded change: the values that change found (the history began later).
    expect(atStart).toMatchObject({
      id: '1',
      existed: true,
      changedSince: true,
      values: { id: 1, holder: 'Ada', balance: 100, pin: '[redacted]', region: 'EU' },
    });
    expect(atStart?.changedFields.sort()).toEqual(['balance', 'holder']);
    // No recorded change at all: as it is now, nothing to show.
    expect(untouched).toEqual({
      id: '2',
      existed: true,
      changedSince: false,
      changedFields: [],
      values: null,
    });

    const [between] = await statesOf(t1, ['1']);
    expect(between).toMatchObject({
      existed: true,
      changedSince: true,
      values: { holder: 'Ada', balance: 110, pin: '[redacted]' },
    });
    // The pin changed too, but it is redacted: its change is not told.
    expect(between?.changedFields.sort()).toEqual(['balance', 'holder']);

    const [now] = await statesOf(t2, ['1']);
    expect(now).toMatchObject({ existed: true, changedSince: false, changedFields: [] });
    expect(now?.values).toMatchObject({ holder: 'Ada L.', balance: 120 });
  });

  it('answers in the order asked, each id once, and reads time zones like state', async () => {
    const before = new Date();
    await pause();
    expect((await put('3', { balance: 11 })).status).toBe(200);
    const answer = await statesOf(before, ['3', '1', '3']);
    expect(answer.map((state) => state.id)).toEqual(['3', '1']);
    expect(answer[0]?.values).toMatchObject({ balance: 10 });

    // A local date-time is read in the request's `timezone` (the client's is sent first).
    const local = DateTime.fromJSDate(before, { zone: 'Asia/Tokyo' }).toFormat(
      "yyyy-MM-dd'T'HH:mm:ss.SSS",
    );
    const tokyo = await admin('POST', '/_audit-trail/accounts/states?timezone=Asia/Tokyo', {
      body: { at: local, ids: ['3'] },
    });
    expect(tokyo.status).toBe(200);
    expect(tokyo.body.data[0].values).toMatchObject({ balance: 10 });
    // The same wall-clock time read in UTC is nine hours later: after the change.
    const utc = await states(local, ['3']);
    expect(utc.body.data[0]).toMatchObject({ existed: true, changedSince: false });
    expect(utc.body.data[0].values).toMatchObject({ balance: 11 });
  });

  it('tells a record created since, and one deleted since', async () => {
    const before = new Date();
    await pause();
    const created = await admin('POST', '/accounts', {
      body: { data: { type: 'accounts', attributes: { holder: 'Dee', balance: 5, region: 'EU' } } },
    });
    expect(created.status).toBe(200);
    const id = String(created.body.data.id);
    expect((await admin('DELETE', '/accounts/2')).status).toBe(204);

    const [fresh, gone] = await statesOf(before, [id, '2']);
    expect(fresh).toEqual({
      id,
      existed: false,
      changedSince: true,
      changedFields: [],
      values: null,
    });
    expect(gone).toMatchObject({ id: '2', existed: true, changedSince: true });
    expect(gone?.values).toMatchObject({ holder: 'Bob', balance: 50 });

    const [nowFresh, nowGone] = await statesOf(new Date(), [id, '2']);
    expect(nowFresh).toMatchObject({ existed: true, changedSince: false });
    expect(nowFresh?.values).toMatchObject({ holder: 'Dee', balance: 5 });
    expect(nowGone).toMatchObject({ existed: false, changedSince: false, values: null });
    await db()
      .knex('accounts')
      .insert({ id: 2, owner: 'Bob', balance: 50, pin: '0000', region: 'US' });
  });

  it('leaves out the records outside the caller scope, checked in one query', async () => {
    lists = 0;
    const answer = await statesOf(new Date(), ['1', '2', '3'], scoped);
    expect(answer.map((state) => state.id)).toEqual(['1', '3']);
    expect(lists).toBe(1);
    expect(JSON.stringify(answer)).not.toContain('Bob');
  });

  it('needs the read right', async () => {
    const answer = await states(new Date().toISOString(), ['1'], noRead);
    expect(answer.status).toBe(403);
  });

  it('refuses bad input with a clear message', async () => {
    const at = new Date().toISOString();
    const refusal = async (body: unknown, path = '/_audit-trail/accounts/states') => {
      const answer = await admin('POST', path, { body });
      return [answer.status, answer.body?.errors?.[0]?.detail];
    };
    expect(await refusal({ ids: ['1'] })).toEqual([400, 'Missing "at"']);
    expect(await refusal({ at: 12, ids: ['1'] })).toEqual([400, '"at" must be a date-time string']);
    const [status, detail] = await refusal({ at: 'yesterday', ids: ['1'] });
    expect(status).toBe(400);
    expect(detail).toMatch(/^Invalid at 'yesterday'/);
    expect((await refusal({ at }))[0]).toBe(400);
    expect(await refusal({ at, ids: '1,2' })).toEqual([
      400,
      '"ids" must be a list of record ids (such as ["1", "2"])',
    ]);
    expect((await refusal({ at, ids: [{ id: 1 }] }))[0]).toBe(400);
    expect((await refusal({ at, ids: ['abc'] }))[0]).toBe(400);
    const many = Array.from({ length: 101 }, (_, index) => String(index + 1));
    expect(await refusal({ at, ids: many })).toEqual([
      400,
      'At most 100 ids per request, got 101: ask for a page at a time',
    ]);
    expect(
      (await admin('POST', '/_audit-trail/nope/states', { body: { at, ids: [] } })).status,
    ).toBe(404);
    // An empty list is an empty answer.
    expect((await states(at, [])).body).toEqual({ data: [] });
  });

  it('checks the scope of a correlation entries once per collection, not once per entry', async () => {
    const key = `states-${dialect}-${Date.now()}`;
    for (const id of ['1', '2', '3']) {
      expect((await put(id, { balance: 7 }, { 'x-forest-correlation-id': key })).status).toBe(200);
    }
    lists = 0;
    const answer = await scoped('POST', '/_audit-trail/correlations', {
      body: { collection: 'accounts', recordId: '1', correlationKeys: [key], acrossRecords: true },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((entry: { recordId: string }) => entry.recordId)).toEqual([
      '1',
      '3',
    ]);
    // One to open the route on record 1, one for every entry's record together, and one for the
    // ids the scope hides together (still there, or gone and readable).
    expect(lists).toBe(3);
    const all = await admin('POST', '/_audit-trail/correlations', {
      body: { collection: 'accounts', recordId: '1', correlationKeys: [key], acrossRecords: true },
    });
    expect(all.body.data).toHaveLength(3);
  });
});
