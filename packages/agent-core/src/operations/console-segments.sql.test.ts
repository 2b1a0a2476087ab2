import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import { createServerSandbox, TEST_USER, type ServerSandbox } from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/create-agent';
import { signSessionToken } from '../protocol/auth/session-token';
import type { SessionClaims } from './session-claims';

const ENV_SECRET = '6b'.repeat(32);
const AUTH_SECRET = 'console-segments-auth-secret';

/**
 * Segments built in the Console (`filterSegments` of the rendering permissions, platform protocol
 * §5.3; agent-http-protocol §6.7) on real databases: lists, counts, CSV exports and actions on all
 * records of one, with the request's filters, search and the team's scope; a code-defined segment
 * of the same name wins; unknown names, a filter that does not fit, another team's member, and the
 * refresh when the team's segments change.
 */
describe.each(['postgres', 'mariadb'] as const)(
  'segments built in the Console on %s',
  (dialect) => {
    const db = useTestDatabase(dialect);
    let sandbox: ServerSandbox;
    let agent: Agent;
    let base: string;

    const token = (id: number, renderingId: number, permissionLevel: string) =>
      signSessionToken(
        {
          ...TEST_USER,
          id,
          email: `user${id}@canopy.test`,
          team: renderingId === 1 ? 'admin' : 'Support',
          role: 'r',
          roleId: id,
          renderingId,
          permissionLevel,
          tags: {},
        } as SessionClaims,
        AUTH_SECRET,
      );
    const admin = token(1, 1, 'admin');
    const support = token(2, 2, 'user');

    const rest = async (path: string, bearer = admin, init: RequestInit = {}) => {
      const url = `${base}/forest${path}${path.includes('?') ? '&' : '?'}timezone=UTC`;
      const response = await fetch(url, {
        ...init,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // CSV
      }
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of many shapes
      return { status: response.status, body: body as any };
    };
    const query = (parameters: Record<string, unknown>) =>
      new URLSearchParams(
        Object.entries(parameters).map(([key, value]): [string, string] => [
          key,
          typeof value === 'string' ? value : JSON.stringify(value),
        ]),
      ).toString();
    const ids = async (parameters: Record<string, unknown>, bearer = admin) => {
      const answer = await rest(
        `/orders?${query({ 'fields[orders]': 'id,reference', sort: 'id', ...parameters })}`,
        bearer,
      );
      expect(answer.status).toBe(200);
      return (answer.body.data as { id: string }[]).map((record) => Number(record.id));
    };
    const count = async (parameters: Record<string, unknown>, bearer = admin) => {
      const answer = await rest(`/orders/count?${query(parameters)}`, bearer);
      expect(answer.status).toBe(200);
      return answer.body.count as number;
    };

    beforeAll(async () => {
      const knex = db().knex;
      await knex.raw('CREATE TABLE customers (id integer PRIMARY KEY, name varchar(20) NOT NULL)');
      await knex('customers').insert([
        { id: 1, name: 'Ada' },
        { id: 2, name: 'Bob' },
      ]);
      await knex.raw(`
      CREATE TABLE orders (
        id integer PRIMARY KEY, reference varchar(20) NOT NULL, status varchar(20) NOT NULL,
        total integer NOT NULL, region varchar(4) NOT NULL,
        customer_id integer REFERENCES customers(id))`);
      await knex('orders').insert([
        { id: 1, reference: 'SO-1', status: 'late', total: 120, region: 'EU', customer_id: 1 },
        { id: 2, reference: 'SO-2', status: 'late', total: 40, region: 'US', customer_id: 2 },
        { id: 3, reference: 'SO-3', status: 'paid', total: 15, region: 'EU', customer_id: 1 },
        { id: 4, reference: 'SO-4', status: 'late', total: 300, region: 'EU', customer_id: 1 },
        { id: 5, reference: 'XX-5', status: 'pending', total: 10, region: 'EU' },
      ]);
      sandbox = await createServerSandbox(0);
      // A member of the "Support" team (rendering 2), with a role of their own.
      const member = {
        id: 2,
        email: 'user2@canopy.test',
        permissionLevel: 'user' as const,
        roleId: 2,
      };
      await sandbox.setUsers([
        { ...TEST_USER, tags: { region: 'US' } },
        { ...TEST_USER, ...member },
      ]);
      await sandbox.setRoles([
        { id: 1, name: 'Admin' },
        { id: 2, name: 'Support' },
      ]);
      await sandbox.setTeam({ id: 2, name: 'Support' }, 2);
      await sandbox.setFilterSegments('orders', [
        { name: 'Late', filter: { field: 'status', operator: 'Equal', value: 'late' } },
        // A code-defined segment has this name: the code's wins.
        { name: 'Paid', filter: { field: 'status', operator: 'Equal', value: 'pending' } },
        { name: 'Broken', filter: { field: 'nope', operator: 'Equal', value: 1 } },
        { name: 'Odd operator', filter: { field: 'total', operator: 'Shout', value: 1 } },
        {
          name: 'My region',
          filter: { field: 'region', operator: 'Equal', value: '{{currentUser.tags.region}}' },
        },
      ]);
      // The support team: its own segment, and a scope.
      await sandbox.setFilterSegments(
        'orders',
        [{ name: 'Big', filter: { field: 'total', operator: 'GreaterThan', value: 30 } }],
        2,
      );
      await sandbox.setScope('orders', { field: 'region', operator: 'Equal', value: 'EU' }, 2);
      const folder = mkdtempSync(join(tmpdir(), 'canopy-segments-'));
      const secrets = { authSecret: AUTH_SECRET, envSecret: ENV_SECRET };
      const quiet = { isProduction: false, logger: () => undefined };
      agent = createAgent({
        ...secrets,
        ...quiet,
        serverUrl: sandbox.url,
        schemaPath: join(folder, '.schema.json'),
      })
        .addDataSource(createSqlDataSource(db().url))
        .customizeCollection('orders', (orders) =>
          orders
            .addSegment('Paid', { field: 'status', operator: 'Equal', value: 'paid' })
            .addAction('Close', {
              scope: 'Bulk',
              execute: async (context, resultBuilder) => {
                await context.collection.update(context.filter, { status: 'closed' });
                return resultBuilder.success('Closed');
              },
            }),
        )
        .mountOnStandaloneServer(0, '127.0.0.1');
      await agent.start();
      base = `http://127.0.0.1:${agent.standaloneServerPort}`;
    }, 60_000);

    afterAll(async () => {
      await agent?.stop();
      await sandbox?.close();
    });

    it('lists and counts the records of a Console segment', async () => {
      expect(await ids({ segment: 'Late' })).toEqual([1, 2, 4]);
      expect(await count({ segment: 'Late' })).toBe(3);
    });

    it('ANDs the segment with the request filters and the search', async () => {
      const filters = { field: 'total', operator: 'greater_than', value: 50 };
      expect(await ids({ segment: 'Late', filters })).toEqual([1, 4]);
      expect(await count({ segment: 'Late', filters })).toBe(2);
      expect(await ids({ segment: 'Late', search: 'SO-2' })).toEqual([2]);
      expect(await count({ segment: 'Late', filters, search: 'SO-4' })).toBe(1);
    });

    it('lists and counts the related records of a Console segment', async () => {
      const path = '/customers/1/relationships/orders';
      const parameters = query({ 'fields[orders]': 'id,reference', sort: 'id', segment: 'Late' });
      const related = await rest(`${path}?${parameters}`);
      expect(related.status).toBe(200);
      expect((related.body.data as { id: string }[]).map((record) => Number(record.id))).toEqual([
        1, 4,
      ]);
      const counted = await rest(`${path}/count?${query({ segment: 'Late' })}`);
      expect([counted.status, counted.body.count]).toEqual([200, 2]);
    });

    it("injects the caller's context variables into the segment", async () => {
      expect(await ids({ segment: 'My region' })).toEqual([2]);
    });

    it('exports the records of a Console segment as CSV', async () => {
      const answer = await rest(
        `/orders.csv?${query({ 'fields[orders]': 'id,reference', header: 'id,reference', segment: 'Late' })}`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toBe('id,reference\n1,SO-1\n2,SO-2\n4,SO-4\n');
    });

    it('applies the code-defined segment when a Console segment has the same name', async () => {
      expect(await ids({ segment: 'Paid' })).toEqual([3]);
    });

    it('refuses an unknown segment as before', async () => {
      const answer = await rest(`/orders?${query({ segment: 'Nope' })}`);
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].detail).toBe(
        'Invalid segment: "Nope" (segments of \'orders\': [Paid])',
      );
    });

    it('refuses a segment whose filter does not fit the collection, naming it', async () => {
      const broken = await rest(`/orders/count?${query({ segment: 'Broken' })}`);
      expect(broken.status).toBe(400);
      expect(broken.body.errors[0].detail).toMatch(
        /^Invalid segment "Broken" of 'orders' \(built in the Console\): .*nope/,
      );
      const odd = await rest(`/orders?${query({ segment: 'Odd operator' })}`);
      expect(odd.status).toBe(400);
      expect(odd.body.errors[0].detail).toMatch(
        /^Invalid segment "Odd operator" of 'orders'.*Shout/,
      );
    });

    it("gives a member only their team's segments, within their scope", async () => {
      const late = await rest(`/orders?${query({ segment: 'Late' })}`, support);
      expect(late.status).toBe(400);
      expect(late.body.errors[0].detail).toMatch(/^Invalid segment: "Late"/);
      expect(await ids({ segment: 'Big' }, support)).toEqual([1, 4]);
      expect(await count({ segment: 'Big' }, support)).toBe(2);
      expect((await rest(`/orders?${query({ segment: 'Big' })}`)).status).toBe(400);
    });

    it('runs an action on all the records of a Console segment', async () => {
      const answer = await rest('/_actions/orders/0/close', admin, {
        method: 'POST',
        body: JSON.stringify({
          data: {
            type: 'custom-action-requests',
            attributes: {
              collection_name: 'orders',
              ids: [],
              all_records: true,
              all_records_ids_excluded: ['4'],
              all_records_subset_query: { segment: 'Late' },
              values: {},
            },
          },
        }),
      });
      expect(answer.status).toBe(200);
      const rows = await db().knex('orders').select('id', 'status').orderBy('id');
      expect(
        rows.map((row: { id: number; status: string }) => [Number(row.id), row.status]),
      ).toEqual([
        [1, 'closed'],
        [2, 'closed'],
        [3, 'paid'],
        [4, 'late'],
        [5, 'pending'],
      ]);
    });

    it("follows changes of the team's segments", async () => {
      await sandbox.setFilterSegments('orders', [
        { name: 'Late', filter: { field: 'status', operator: 'Equal', value: 'closed' } },
      ]);
      // The sandbox sends `refresh-renderings`; the agent reads the rendering again.
      const deadline = Date.now() + 10_000;
      let seen = await ids({ segment: 'Late' });
      while (seen.join() !== '1,2' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        seen = await ids({ segment: 'Late' });
      }
      expect(seen).toEqual([1, 2]);
      const gone = await rest(`/orders?${query({ segment: 'Broken' })}`);
      expect([gone.status, gone.body.errors[0].detail]).toEqual([
        400,
        'Invalid segment: "Broken" (segments of \'orders\': [Paid])',
      ]);
    });
  },
);
