import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import { createServerSandbox, TEST_USER, type ServerSandbox } from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/create-agent';
import { PlatformHttpClient } from '../platform/platform-http-client';
import { signSessionToken } from '../protocol/auth/session-token';
import { restClient } from './test-fixtures/rest-client';
import type { SessionClaims } from '../operations/session-claims';

const ENV_SECRET = '5d'.repeat(32);
const AUTH_SECRET = 'record-changes-auth-secret';

type Dialect = 'postgres' | 'mariadb';

/**
 * Passes the agent's record-change reports to `report` (with the way to send one) until the
 * returned spy is restored; on every PlatformHttpClient, the agent's own being out of reach.
 */
function interceptReports(report: (send: () => Promise<unknown>) => Promise<unknown>) {
  const request = PlatformHttpClient.prototype.request;
  return jest.spyOn(PlatformHttpClient.prototype, 'request').mockImplementation(function (
    this: PlatformHttpClient,
    path,
    options,
  ) {
    const send = () => request.call(this, path, options);
    return path === '/liana/v1/record-changes' ? (report(send) as ReturnType<typeof send>) : send();
  });
}

/** Waits until `check()` holds, 10 s at most (it takes milliseconds). */
async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !check() && Date.now() < deadline;)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

/** An agent on `dialect` with `orders` (and `customers`), its sandbox and a REST helper. */
function useAgent(dialect: Dialect) {
  const db = useTestDatabase(dialect);
  const state = {} as { sandbox: ServerSandbox; agent: Agent; base: string };
  const bearer = signSessionToken(
    {
      ...TEST_USER,
      team: 'admin',
      role: 'Admin',
      renderingId: 1,
      permissionLevel: 'admin',
      tags: {},
    } as SessionClaims,
    AUTH_SECRET,
  );

  beforeAll(async () => {
    const knex = db().knex;
    await knex.raw('CREATE TABLE customers (id integer PRIMARY KEY, name varchar(20) NOT NULL)');
    await knex('customers').insert([
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Bob' },
    ]);
    await knex.raw(`
      CREATE TABLE orders (
        id integer PRIMARY KEY, status varchar(20) NOT NULL, total integer NOT NULL,
        customer_id integer REFERENCES customers(id))`);
    await knex('orders').insert([
      { id: 1, status: 'late', total: 120, customer_id: 1 },
      { id: 2, status: 'paid', total: 40, customer_id: 2 },
      { id: 3, status: 'late', total: 15, customer_id: 1 },
      { id: 4, status: 'late', total: 300, customer_id: 1 },
      { id: 5, status: 'late', total: 7, customer_id: 2 },
    ]);
    state.sandbox = await createServerSandbox(0);
    const schemaPath = join(mkdtempSync(join(tmpdir(), 'canopy-changes-')), '.canopy-schema.json');
    state.agent = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: state.sandbox.url,
      schemaPath,
      isProduction: false,
      logger: () => undefined,
    })
      .addDataSource(createSqlDataSource(db().url))
      .mountOnStandaloneServer(0, '127.0.0.1');
    await state.agent.start();
    state.base = `http://127.0.0.1:${state.agent.standaloneServerPort}/forest`;
  }, 60_000);

  afterAll(async () => {
    await state.agent?.stop();
    await state.sandbox?.close();
  });

  const rest = restClient(() => state.base.replace(/\/forest$/, ''), bearer);
  const put = (id: number, attributes: Record<string, unknown>, headers = {}) =>
    rest('PUT', `/orders/${id}`, {
      body: { data: { type: 'orders', id: String(id), attributes } },
      headers,
    });
  return { state, rest, put };
}

describe('record-change reports on postgres', () => {
  const { state, rest, put } = useAgent('postgres');
  /** The changes matching `predicate`, once at least `count` arrived. */
  const changesOf = (
    predicate: (c: { recordId: string; operation: string }) => boolean,
    count = 1,
  ) =>
    state.sandbox
      .waitForRecordChanges((all) => all.filter(predicate).length >= count, {
        envSecret: ENV_SECRET,
      })
      .then((all) => all.filter(predicate));

  it('reports an update with the names of the fields written and the correlation id', async () => {
    const answer = await put(1, { status: 'shipped', total: 121 });
    expect(answer.status).toBe(200);
    const [reported] = await changesOf((c) => c.recordId === '1' && c.operation === 'update');
    expect(reported).toEqual({
      collection: 'orders',
      recordId: '1',
      userId: TEST_USER.id,
      operation: 'update',
      fields: ['status', 'total'],
      correlationId: answer.headers.get('x-forest-correlation-id'),
    });
  });

  it('reports a create with its new id', async () => {
    const answer = await rest('POST', '/orders', {
      body: { data: { type: 'orders', attributes: { id: 10, status: 'new', total: 1 } } },
    });
    expect(answer.status).toBe(200);
    const [reported] = await changesOf((c) => c.operation === 'create');
    expect(reported).toMatchObject({ collection: 'orders', recordId: '10' });
    expect([...(reported as { fields: string[] }).fields].sort()).toEqual([
      'id',
      'status',
      'total',
    ]);
  });

  it('reports each record of a bulk delete, and those of an "all records but" delete', async () => {
    expect(
      (
        await rest('DELETE', '/orders', {
          body: { data: { attributes: { ids: ['10', '5'], collection_name: 'orders' } } },
        })
      ).status,
    ).toBe(204);
    const byIds = await changesOf(
      (c) => c.operation === 'delete' && ['10', '5'].includes(c.recordId),
      2,
    );
    expect(byIds.map((c) => c.recordId).sort()).toEqual(['10', '5']);
    // All late orders but #1 (#3 and #4 remain late after the update above made #1 shipped).
    expect(
      (
        await rest('DELETE', '/orders', {
          body: {
            data: {
              attributes: {
                all_records: true,
                all_records_ids_excluded: ['4'],
                all_records_subset_query: {
                  filters: JSON.stringify({ field: 'status', operator: 'equal', value: 'late' }),
                },
              },
            },
          },
        })
      ).status,
    ).toBe(204);
    const all = await changesOf((c) => c.operation === 'delete' && c.recordId === '3');
    expect(all).toHaveLength(1);
    expect(state.sandbox.recordChanges(ENV_SECRET).some((c) => c.recordId === '4')).toBe(false);
  });

  it('reports a to-one relation set as an update of the relation field', async () => {
    const answer = await rest('PUT', '/orders/2/relationships/customer', {
      body: { data: { type: 'customers', id: '1' } },
    });
    expect(answer.status).toBe(204);
    const [reported] = await changesOf((c) => c.recordId === '2' && c.operation === 'update');
    expect(reported).toMatchObject({ collection: 'orders', fields: ['customer'] });
  });

  it('does not fail a write when the platform refuses its report', async () => {
    const outcomes: Promise<string>[] = [];
    const watch = interceptReports((send) => {
      const answer = send();
      outcomes.push(
        answer.then(
          () => 'sent',
          () => 'refused',
        ),
      );
      return answer;
    });
    state.sandbox.failRecordChanges(503);
    try {
      const answer = await put(2, { total: 41 });
      expect(answer.status).toBe(200);
      expect(answer.body.data.attributes.total).toBe(41);
      // The report goes out after the write answered: refused, as the test means it to be.
      await until(() => outcomes.length > 0);
      expect(await outcomes[0]).toBe('refused');
    } finally {
      watch.mockRestore();
      state.sandbox.failRecordChanges(null);
    }
  });

  it('answers a write without waiting for its report, even one the platform leaves unanswered', async () => {
    // The report is held (not timed): a write that waited for it would never answer, where a
    // time bound could not tell a report sent off the request path from one awaited with its
    // retries (1.5 s) on a loaded machine.
    const held: ((error: Error) => void)[] = [];
    const hold = interceptReports(() => new Promise((_resolve, reject) => held.push(reject)));
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        put(2, { total: 42 }),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('the write waited for its report')), 10_000);
        }),
      ]);
      expect(answer.status).toBe(200);
      expect(answer.body.data.attributes.total).toBe(42);
      // A report did go out, and is still unanswered.
      await until(() => held.length > 0);
      expect(held.length).toBeGreaterThan(0);
    } finally {
      clearTimeout(timer);
      hold.mockRestore();
      for (const reject of held) reject(new Error('released by the test'));
    }
  }, 30_000);
});

describe.each(['postgres', 'mariadb'] as const)('conditional updates on %s', (dialect) => {
  const { rest, put } = useAgent(dialect);

  it('answers a strong ETag on a get by id, stable while the record is unchanged', async () => {
    const first = await rest('GET', '/orders/1');
    const again = await rest('GET', '/orders/1');
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await rest('GET', '/orders/2')).headers.get('etag')).not.toBe(
      first.headers.get('etag'),
    );
    expect((await rest('GET', '/orders')).headers.get('etag')).toBeNull();
  });

  it('refuses a stale update with 412 and the current values, leaving the record as is', async () => {
    const etag = (await rest('GET', '/orders/3')).headers.get('etag')!;
    expect((await put(3, { status: 'paid' })).status).toBe(200);
    const stale = await put(3, { status: 'cancelled' }, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(stale.body.errors[0]).toMatchObject({
      name: 'PreconditionFailedError',
      detail: 'The record changed since you read it',
      status: 412,
      data: { current: { id: 3, status: 'paid', total: 15, customer_id: 1 } },
    });
    const fresh = await rest('GET', '/orders/3');
    expect(fresh.body.data.attributes.status).toBe('paid');
    expect(stale.body.errors[0].data.etag).toBe(fresh.headers.get('etag'));
  });

  it('applies an update whose If-Match is current, and answers the new tag on the next get', async () => {
    const etag = (await rest('GET', '/orders/4')).headers.get('etag')!;
    const answer = await put(4, { total: 301 }, { 'if-match': etag });
    expect(answer.status).toBe(200);
    expect(answer.body.data.attributes.total).toBe(301);
    expect((await rest('GET', '/orders/4')).headers.get('etag')).not.toBe(etag);
  });

  it('updates as before without If-Match, and refuses a weak or unknown tag', async () => {
    expect((await put(4, { total: 302 })).status).toBe(200);
    expect((await put(4, { total: 303 }, { 'if-match': 'W/"x"' })).status).toBe(412);
    expect((await put(4, { total: 303 }, { 'if-match': '"nope"' })).status).toBe(412);
    expect((await put(4, { total: 304 }, { 'if-match': '*' })).status).toBe(200);
  });
});
