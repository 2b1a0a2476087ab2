import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAgent,
  createInMemoryDataSource,
  signSessionToken,
  type Agent,
  type DataSourceFactory,
} from '@canopy/agent-core';

/** An activity log as a platform reports it back to the scenario. */
export interface ObservedLog {
  action: string;
  type: string;
  collectionName: string | null;
  recordIds: string[];
  userId: number;
}

/** What the scenario needs from a platform (the sandbox, or admin-api-server). */
export interface ScenarioPlatform {
  url: string;
  envSecret: string;
  /** The platform user the session token names, and the rendering (team) of the session. */
  user: { id: number; email: string; team: string; role: string; renderingId: number };
  /** Denies `editEnabled` on `orders` to the user's role. */
  denyOrderEdits(): Promise<void>;
  /** Restricts the user's team to orders of region EU. */
  scopeOrdersToEu(): Promise<void>;
  /** The activity logs the platform stored, oldest first. */
  activityLogs(): Promise<ObservedLog[]>;
  /**
   * Where the agent's `orders` live (ids 1–3: amounts 120, 80, 40; regions EU, US, EU);
   * default {@link inMemoryOrders}.
   */
  orders?: DataSourceFactory;
}

/** The scenario's `orders`, in memory. */
export const inMemoryOrders: DataSourceFactory = createInMemoryDataSource({
  orders: {
    fields: {
      id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
      amount: { type: 'Column', columnType: 'Number' },
      region: { type: 'Column', columnType: 'String' },
    },
    records: [
      { id: 1, amount: 120, region: 'EU' },
      { id: 2, amount: 80, region: 'US' },
      { id: 3, amount: 40, region: 'EU' },
    ],
  },
});

/** SQL creating the scenario's `orders` in a PostgreSQL schema (for `@canopy/datasource-sql`). */
export const ORDERS_SQL = `
  CREATE TABLE orders (id serial PRIMARY KEY, amount integer NOT NULL, region text NOT NULL);
  INSERT INTO orders (amount, region) VALUES (120, 'EU'), (80, 'US'), (40, 'EU');
`;

export const AUTH_SECRET = 'scenario-auth-secret';

/** Starts an agent on the platform's `orders` with a "Refund order" action. */
export async function startScenarioAgent(platform: ScenarioPlatform): Promise<{
  agent: Agent;
  // JSON:API documents of several shapes: the assertions say what they expect.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
}> {
  const agent = createAgent({
    authSecret: AUTH_SECRET,
    envSecret: platform.envSecret,
    serverUrl: platform.url,
    schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-scenario-')), '.canopy-schema.json'),
    logger: () => {},
  })
    .addDataSource(platform.orders ?? inMemoryOrders)
    .customizeCollection('orders', (orders) =>
      orders.addAction('Refund order', {
        scope: 'Single',
        execute: (_context, result) => result.success('Refunded'),
      }),
    )
    .mountOnStandaloneServer(0, '127.0.0.1');
  await agent.start();
  const base = `http://127.0.0.1:${agent.standaloneServerPort}/forest`;
  const token = signSessionToken(
    {
      id: platform.user.id,
      email: platform.user.email,
      firstName: 'Ada',
      lastName: 'Byron',
      team: platform.user.team,
      role: platform.user.role,
      permissionLevel: 'user',
      renderingId: platform.user.renderingId,
      tags: {},
    },
    AUTH_SECRET,
  );
  const call = async (method: string, path: string, body?: unknown) => {
    const separator = path.includes('?') ? '&' : '?';
    const response = await fetch(`${base}${path}${separator}timezone=Europe/Paris`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  return { agent, call };
}

/** Polls `check` until it holds, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * How long a permission change may take to reach the running agent. The agent keeps what it read
 * for 15 minutes unless the platform's event stream tells it of a change: seen within 10 s means
 * the event (tens of milliseconds when idle), with room for a loaded machine.
 */
const PERMISSION_CHANGE_MS = 10_000;

/**
 * The scenario both platforms must pass: list, read, update and an action through the agent,
 * the matching activity logs on the platform, then a role change and a team scope change that
 * reach the running agent through the platform's events.
 */
export function defineAgentScenario(name: string, setup: () => Promise<ScenarioPlatform>): void {
  describe(`an agent against ${name}`, () => {
    let platform: ScenarioPlatform;
    let agent: Agent;
    let call: Awaited<ReturnType<typeof startScenarioAgent>>['call'];

    beforeAll(async () => {
      platform = await setup();
      ({ agent, call } = await startScenarioAgent(platform));
    }, 30_000);

    afterAll(async () => {
      await agent?.stop();
    });

    it('serves list, read, update and action calls and the platform stores their activity logs', async () => {
      expect((await call('GET', '/orders')).body.data).toHaveLength(3);
      expect((await call('GET', '/orders/1')).body.data.attributes).toMatchObject({ amount: 120 });
      const updated = await call('PUT', '/orders/2', {
        data: { type: 'orders', id: '2', attributes: { amount: 90 } },
      });
      expect(updated).toMatchObject({ status: 200 });
      const action = await call('POST', '/_actions/orders/0/refund-order', {
        data: {
          type: 'custom-action-requests',
          attributes: {
            collection_name: 'orders',
            ids: ['3'],
            values: {},
            all_records: false,
            all_records_ids_excluded: [],
          },
        },
      });
      expect(action).toEqual({
        status: 200,
        body: expect.objectContaining({ success: 'Refunded' }),
      });

      const logs = await eventually(
        async () => {
          const stored = await platform.activityLogs();
          return stored.length >= 4 && stored;
        },
        10_000,
        'four activity logs',
      );
      const by = (userId: number, action: string) =>
        logs.find((log) => log.userId === userId && log.action === action);
      expect(by(platform.user.id, 'index')).toMatchObject({
        type: 'read',
        collectionName: 'orders',
      });
      expect(by(platform.user.id, 'read')).toMatchObject({
        collectionName: 'orders',
        recordIds: ['1'],
      });
      expect(by(platform.user.id, 'update')).toMatchObject({
        type: 'write',
        collectionName: 'orders',
        recordIds: ['2'],
      });
      expect(by(platform.user.id, 'action')).toMatchObject({
        type: 'write',
        collectionName: 'orders',
        recordIds: ['3'],
      });
    }, 20_000);

    it('applies a role change to the running agent on its event', async () => {
      const body = { data: { type: 'orders', id: '1', attributes: { amount: 130 } } };
      expect((await call('PUT', '/orders/1', body)).status).toBe(200);
      await platform.denyOrderEdits();
      await eventually(
        async () => (await call('PUT', '/orders/1', body)).status === 403,
        PERMISSION_CHANGE_MS,
        'the edit refusal',
      );
    });

    it('applies a team scope change to the running agent on its event', async () => {
      await platform.scopeOrdersToEu();
      const ids = await eventually(
        async () => {
          const listed = (await call('GET', '/orders')).body.data as { id: string }[];
          return listed.length === 2 && listed.map((record) => record.id);
        },
        PERMISSION_CHANGE_MS,
        'the scope',
      );
      expect(ids.sort()).toEqual(['1', '3']);
    });
  });
}
