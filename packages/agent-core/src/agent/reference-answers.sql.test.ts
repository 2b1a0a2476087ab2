import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { createSqlDataSource } from '@canopy/datasource-sql';
import { type TestDatabase, useTestDatabase } from '@canopy/test-databases';
import { createServerSandbox, type ServerSandbox } from '@canopy/testing';
import { adminSessionToken } from '../../test/fixtures';
import type { Agent } from './agent';
import { createAgent } from './create-agent';

const ENV_SECRET = '7'.repeat(64);
const AUTH_SECRET = 'reference-answers-auth-secret';
/** 32 hex digits whose version nibble (`d`) is no RFC 4122 version. */
const ODD_UUID = '9a38c052-50f9-df5b-200b-482880c100f1';

/** The orders table of both dialects: a uuid column that is not the key, two period columns. */
const SCHEMA: Record<'postgres' | 'mariadb', string[]> = {
  postgres: [
    'CREATE TABLE customers (id serial PRIMARY KEY, name text NOT NULL)',
    `CREATE TABLE orders (
      id serial PRIMARY KEY, customer_id integer REFERENCES customers(id), uuid uuid,
      status text NOT NULL DEFAULT 'paid', total_amount numeric(12,2) NOT NULL,
      ordered_at timestamp NOT NULL, ordered_on date NOT NULL)`,
  ],
  mariadb: [
    'CREATE TABLE customers (id int AUTO_INCREMENT PRIMARY KEY, name varchar(50) NOT NULL)',
    `CREATE TABLE orders (
      id int AUTO_INCREMENT PRIMARY KEY, customer_id int REFERENCES customers(id), uuid char(36),
      status varchar(20) NOT NULL DEFAULT 'paid', total_amount decimal(12,2) NOT NULL,
      ordered_at datetime NOT NULL, ordered_on date NOT NULL)`,
  ],
};

/** Two orders two years ago (one with the odd uuid), one three years ago: none this year. */
async function seed(db: TestDatabase): Promise<void> {
  for (const statement of SCHEMA[db.dialect as 'postgres' | 'mariadb'])
    await db.knex.raw(statement);
  await db.knex('customers').insert([{ name: 'Ada' }, { name: 'Alan' }]);
  const yearsAgo = (years: number) => {
    const date = new Date();
    date.setUTCFullYear(date.getUTCFullYear() - years);
    return date;
  };
  await db.knex('orders').insert([
    {
      customer_id: 1,
      uuid: ODD_UUID,
      total_amount: 10.5,
      ordered_at: yearsAgo(2),
      ordered_on: yearsAgo(2),
    },
    {
      customer_id: 2,
      uuid: '0b8e1a7c-9d2f-4c3b-8a1e-5f6d7c8b9a0e',
      total_amount: 4.5,
      ordered_at: yearsAgo(2),
      ordered_on: yearsAgo(2),
    },
    {
      customer_id: 1,
      uuid: null,
      total_amount: 1,
      ordered_at: yearsAgo(3),
      ordered_on: yearsAgo(3),
    },
  ]);
}

/**
 * The three requests of issue 35, sent exactly as filed, to an agent mounted each way we offer
 * (the standalone server, with and without the MCP server, and express; there is no koa or
 * fastify mount), on PostgreSQL and MariaDB, on an orders table where the uuid is a plain column.
 *
 * The issue describes these answers as the reference agent's. Run side by side on the same
 * PostgreSQL tables, @forestadmin/agent 1.78.11 answers otherwise: no order for the non-RFC uuid
 * (its uuid check wants an RFC version nibble), `countCurrent: null` for a Sum, Avg or Max over
 * no rows, and a plain-text `Not Found` for `/forest/nope`. These tests keep the answers the issue
 * asks for, which are also ours (docs/data-semantics.md §3.9, docs/agent-http-protocol.md §10.1).
 */
describe.each(['postgres', 'mariadb'] as const)(
  'the answers of issue 35, on every mount (%s)',
  (dialect) => {
    const db = useTestDatabase(dialect);
    let sandbox: ServerSandbox;
    const agents: Agent[] = [];
    let server: Server;
    const mounts: { name: string; url: string }[] = [];
    let token: string;

    function build(): Agent {
      return createAgent({
        authSecret: AUTH_SECRET,
        envSecret: ENV_SECRET,
        serverUrl: sandbox.url,
        schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-reference-')), '.canopy-schema.json'),
        loggerLevel: 'Error',
      }).addDataSource(createSqlDataSource(db().url));
    }

    beforeAll(async () => {
      await seed(db());
      sandbox = await createServerSandbox(0);
      const standalone = build().mountAiMcpServer().mountOnStandaloneServer(0, '127.0.0.1');
      const plain = build().mountOnStandaloneServer(0, '127.0.0.1');
      const app = express();
      const embedded = build().mountOnExpress(app);
      app.use((_request, response) => {
        response.status(404).type('text/plain').send('host application 404');
      });
      agents.push(standalone, plain, embedded);
      await standalone.start();
      await plain.start();
      await embedded.start();
      server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      mounts.push(
        { name: 'standalone with MCP', url: `http://127.0.0.1:${standalone.standaloneServerPort}` },
        { name: 'standalone', url: `http://127.0.0.1:${plain.standaloneServerPort}` },
        { name: 'express', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
      );
      token = adminSessionToken(AUTH_SECRET);
    }, 60_000);

    afterAll(async () => {
      for (const agent of agents) await agent.stop();
      await new Promise((resolve) => server?.close(resolve));
      await sandbox?.close();
    });

    const call = (url: string, init: RequestInit = {}) =>
      fetch(url, {
        ...init,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...init.headers,
        },
      });

    it('finds the order whose uuid column holds a non-RFC uuid by search', async () => {
      for (const mount of mounts) {
        for (const query of [
          `timezone=Europe/Paris&search=${ODD_UUID}&page[size]=3&page[number]=1`,
          `search=${ODD_UUID.toUpperCase()}&page[size]=3&timezone=Europe/Paris`,
        ]) {
          const response = await call(`${mount.url}/forest/orders?${query}`);
          const text = await response.text();
          expect({ mount: mount.name, query, status: response.status, text }).toMatchObject({
            status: 200,
          });
          const body = JSON.parse(text) as { data: { attributes: { uuid: string } }[] };
          expect({
            mount: mount.name,
            query,
            found: body.data.map((row) => row.attributes.uuid.toLowerCase()),
          }).toEqual({ mount: mount.name, query, found: [ODD_UUID] });
        }
      }
    });

    // Beside the search: a number an integer column cannot store matches nothing in it,
    // where it made the whole search a 400 ("out of range").
    it('searches a number too large for the integer columns, or a fraction, without an error', async () => {
      const url = mounts[1]!.url;
      for (const text of ['123456789012', '99999999999999999999', '1.5', '>=123456789012']) {
        const response = await call(
          `${url}/forest/orders?timezone=UTC&search=${encodeURIComponent(text)}&page[size]=3`,
        );
        const body = (await response.json()) as { data: unknown[] };
        expect({ text, status: response.status, found: body.data?.length }).toEqual({
          text,
          status: 200,
          found: 0,
        });
      }
      const one = await call(`${url}/forest/orders?timezone=UTC&search=1&page[size]=3`);
      expect(
        ((await one.json()) as { data: { id: string }[] }).data.map((row) => row.id),
      ).toContain('1');
    });

    it('answers countCurrent 0, not null, for a Sum over an empty previous_year period', async () => {
      for (const mount of mounts) {
        for (const field of ['ordered_at', 'ordered_on']) {
          const response = await call(`${mount.url}/forest/stats/orders?timezone=Europe/Paris`, {
            method: 'POST',
            body: JSON.stringify({
              type: 'Value',
              aggregator: 'Sum',
              aggregateFieldName: 'total_amount',
              filter: { field, operator: 'previous_year' },
            }),
          });
          const body = (await response.json()) as { data: { attributes: { value: unknown } } };
          expect({ mount: mount.name, field, value: body.data?.attributes.value }).toEqual({
            mount: mount.name,
            field,
            value: { countCurrent: 0, countPrevious: 15 },
          });
        }
      }
    });

    it('answers 0 for every aggregator over an empty period, current or previous', async () => {
      const charts = [
        ['Avg', 'previous_year', { countCurrent: 0, countPrevious: 7.5 }],
        ['Max', 'previous_year', { countCurrent: 0, countPrevious: 10.5 }],
        ['Count', 'previous_year', { countCurrent: 0, countPrevious: 2 }],
        ['Sum', 'today', { countCurrent: 0, countPrevious: 0 }],
      ] as const;
      for (const mount of mounts) {
        for (const [aggregator, operator, value] of charts) {
          const response = await call(`${mount.url}/forest/stats/orders?timezone=Europe/Paris`, {
            method: 'POST',
            body: JSON.stringify({
              type: 'Value',
              aggregator,
              aggregateFieldName: aggregator === 'Count' ? undefined : 'total_amount',
              filter: { field: 'ordered_at', operator },
            }),
          });
          const body = (await response.json()) as { data: { attributes: { value: unknown } } };
          expect({ mount: mount.name, aggregator, value: body.data?.attributes.value }).toEqual({
            mount: mount.name,
            aggregator,
            value,
          });
        }
      }
    });

    it('answers a JSON:API 404 for an unknown collection', async () => {
      for (const mount of mounts) {
        for (const method of ['GET', 'POST']) {
          const response = await call(`${mount.url}/forest/nope?timezone=Europe/Paris`, {
            method,
            body: method === 'POST' ? '{}' : undefined,
          });
          expect({
            mount: mount.name,
            method,
            status: response.status,
            type: response.headers.get('content-type'),
            body: await response.json(),
          }).toEqual({
            mount: mount.name,
            method,
            status: 404,
            type: expect.stringMatching(/^application\/json/),
            body: {
              errors: [
                {
                  name: 'NotFoundError',
                  detail: "Collection 'nope' does not exist",
                  status: 404,
                },
              ],
            },
          });
        }
      }
    });

    it('leaves a path outside the agent to the host application, a JSON:API 404 standalone', async () => {
      for (const mount of mounts) {
        const response = await call(`${mount.url}/nope?timezone=Europe/Paris`);
        const text = await response.text();
        expect({ mount: mount.name, status: response.status, text }).toEqual({
          mount: mount.name,
          status: 404,
          text:
            mount.name === 'express'
              ? 'host application 404'
              : JSON.stringify({
                  errors: [{ name: 'NotFoundError', detail: 'Not Found', status: 404 }],
                }),
        });
      }
    });
  },
);
