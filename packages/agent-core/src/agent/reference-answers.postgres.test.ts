import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import { createServerSandbox, type ServerSandbox } from '@canopy/testing';
import { adminSessionToken } from '../../test/fixtures';
import type { Agent } from './agent';
import { createAgent } from './create-agent';

const ENV_SECRET = '7'.repeat(64);
const AUTH_SECRET = 'reference-answers-auth-secret';
/** 32 hex digits whose version nibble (`d`) is no RFC 4122 version. */
const ODD_UUID = '9a38c052-50f9-df5b-200b-482880c100f1';

/**
 * Three requests whose answers differed from the reference agent's, each sent exactly as it was
 * found, to an agent mounted each way we offer (the standalone server and express), on an orders
 * table where the uuid is a plain column, not the primary key.
 */
describe('answers identical to the reference agent, on every mount', () => {
  const db = useTestDatabase('postgres');
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
    await db().knex.raw(`
      CREATE TABLE customers (id serial PRIMARY KEY, name text NOT NULL);
      INSERT INTO customers (name) VALUES ('Ada'), ('Alan');
      CREATE TABLE orders (
        id serial PRIMARY KEY,
        customer_id integer REFERENCES customers(id),
        uuid uuid,
        status text NOT NULL DEFAULT 'paid',
        total_amount numeric(12,2) NOT NULL,
        ordered_at timestamp NOT NULL,
        ordered_on date NOT NULL);
      INSERT INTO orders (customer_id, uuid, total_amount, ordered_at, ordered_on) VALUES
        (1, '${ODD_UUID}', 10.5, now() - interval '2 years', now() - interval '2 years'),
        (2, '0b8e1a7c-9d2f-4c3b-8a1e-5f6d7c8b9a0e', 4.5, now() - interval '2 years', now() - interval '2 years'),
        (1, NULL, 1, now() - interval '3 years', now() - interval '3 years');`);
    sandbox = await createServerSandbox(0);
    const standalone = build().mountAiMcpServer().mountOnStandaloneServer(0, '127.0.0.1');
    const plain = build().mountOnStandaloneServer(0, '127.0.0.1');
    const app = express();
    const embedded = build().mountOnExpress(app);
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
  });

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
      const response = await call(
        `${mount.url}/forest/orders?timezone=Europe/Paris&search=${ODD_UUID}` +
          '&page[size]=3&page[number]=1',
      );
      expect({ mount: mount.name, status: response.status }).toEqual({
        mount: mount.name,
        status: 200,
      });
      const body = (await response.json()) as {
        data: { attributes: { uuid: string } }[];
      };
      expect({ mount: mount.name, found: body.data.map((row) => row.attributes.uuid) }).toEqual({
        mount: mount.name,
        found: [ODD_UUID],
      });
    }
  });

  it('answers countCurrent 0, not null, for a Sum over an empty previous_year period', async () => {
    for (const [mount, field] of mounts.flatMap(
      (m) =>
        [
          [m, 'ordered_at'],
          [m, 'ordered_on'],
        ] as const,
    )) {
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
      if (!body.data) throw new Error(`${mount.name}: ${response.status} ${JSON.stringify(body)}`);
      expect({ mount: mount.name, value: body.data.attributes.value }).toEqual({
        mount: mount.name,
        value: { countCurrent: 0, countPrevious: expect.any(Number) },
      });
    }
  });

  it('answers a JSON:API 404 for an unknown collection', async () => {
    for (const mount of mounts) {
      const response = await call(`${mount.url}/forest/nope?timezone=Europe/Paris`);
      expect({ mount: mount.name, status: response.status }).toEqual({
        mount: mount.name,
        status: 404,
      });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({
        errors: [
          {
            name: 'NotFoundError',
            detail: expect.stringContaining('nope'),
            status: 404,
          },
        ],
      });
    }
  });
});
