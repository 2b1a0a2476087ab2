import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqlDataSource } from '@canopy/datasource-sql';
import { type TestDatabase, useTestDatabase } from '@canopy/test-databases';
import {
  createAgentTestClient,
  createServerSandbox,
  type AgentTestClient,
  type ServerSandbox,
} from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/create-agent';
import { signSessionToken } from '../protocol/auth/session-token';
import type { AuditTrailOptions } from './audit-trail-options';

const ENV_SECRET = '6b'.repeat(32);
const AUTH_SECRET = 'audit-trail-stores-secret';

/** An agent with `auditTrail` on `database`'s `notes` table, and a test client for it. */
async function startAgent(
  database: TestDatabase,
  auditTrail: AuditTrailOptions,
): Promise<{
  agent: Agent;
  client: AgentTestClient;
  sandbox: ServerSandbox;
  schemaPath: string;
}> {
  const sandbox = await createServerSandbox(0);
  const schemaPath = join(mkdtempSync(join(tmpdir(), 'canopy-audit-stores-')), 'schema.json');
  const agent = createAgent({
    authSecret: AUTH_SECRET,
    envSecret: ENV_SECRET,
    serverUrl: sandbox.url,
    schemaPath,
    logger: () => undefined,
    auditTrail,
  })
    .addDataSource(createSqlDataSource(database.url))
    .mountOnStandaloneServer(0, '127.0.0.1');
  await agent.start();
  const client = await createAgentTestClient({
    agentEnvSecret: ENV_SECRET,
    agentAuthSecret: AUTH_SECRET,
    agentUrl: `http://127.0.0.1:${agent.standaloneServerPort}`,
    serverUrl: sandbox.url,
    agentSchemaPath: schemaPath,
  });
  return { agent, client, sandbox, schemaPath };
}

function adminToken(): string {
  return signSessionToken(
    {
      id: 1,
      email: 'admin@canopy.test',
      firstName: 'Ad',
      lastName: 'Min',
      team: 'Operations',
      role: 'Admin',
      permissionLevel: 'admin',
      renderingId: 1,
      tags: {},
    },
    AUTH_SECRET,
  );
}

/**
 * Where the history goes: another database given by `connectionString` (with its `schema` and
 * `table`), and the data source's own database on MariaDB (same transaction as the change).
 */
describe('audit trail stores', () => {
  describe('connectionString: the history in another database', () => {
    const history = `history_elsewhere_${process.pid}_${Date.now().toString(36)}`;
    afterAll(async () => {
      await data().knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [history]);
    });
    const data = useTestDatabase('postgres');
    let started: Awaited<ReturnType<typeof startAgent>>;

    beforeAll(async () => {
      await data().knex.raw(
        "CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL); INSERT INTO notes (body) VALUES ('first')",
      );
      const { host, port, user, database } = data().connection as {
        host: string;
        port: number;
        user: string;
        database: string;
      };
      // The same server, but a connection of its own with no search path: the history lands in
      // `schema`, never in the data source's schema.
      started = await startAgent(data(), {
        connectionString: `postgres://${user}@${host}:${port}/${database}`,
        schema: history,
        table: 'notes_history',
        redact: ['notes.body'],
      });
    }, 60_000);

    afterAll(async () => {
      await started?.agent.stop();
      await started?.sandbox.close();
    });

    it('writes the rows to the given database, schema and table, redacting collection.field', async () => {
      await started.client.collection('notes').update(1, { body: 'second' });
      const rows = await data().knex(`${history}.notes_history`).select('*');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        collection_name: 'notes',
        record_id: '1',
        operation: 'update',
      });
      expect(`${rows[0].before_values}${rows[0].after_values}`).not.toMatch(/first|second/);
      const { rows: tables } = await data().knex.raw(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE '%history%'",
      );
      expect(tables).toEqual([]);
      const { rows: entries } = await started.client.auditTrail.history('notes', 1);
      expect(entries).toMatchObject([
        {
          operation: 'update',
          previousValues: { body: '[redacted]' },
          newValues: { body: '[redacted]' },
        },
      ]);
    });
  });

  describe('on MariaDB: the data source database, in the transaction of the change', () => {
    const data = useTestDatabase('mariadb');
    let started: Awaited<ReturnType<typeof startAgent>>;

    beforeAll(async () => {
      await data().knex.raw(
        'CREATE TABLE notes (id int AUTO_INCREMENT PRIMARY KEY, body varchar(100) NOT NULL, CONSTRAINT body_short CHECK (CHAR_LENGTH(body) < 20))',
      );
      await data().knex('notes').insert({ body: 'first' });
      started = await startAgent(data(), {});
    }, 60_000);

    afterAll(async () => {
      await started?.agent.stop();
      await started?.sandbox.close();
    });

    it('records a create, an update and a delete in canopy_audit_trail', async () => {
      const created = await started.client.collection('notes').create({ body: 'new' });
      const id = created.id as number;
      await started.client.collection('notes').update(id, { body: 'changed' });
      await started.client.collection('notes').delete([id]);
      const { rows } = await started.client.auditTrail.history('notes', id, { oldestFirst: true });
      expect(rows.map((row) => [row.operation, row.previousValues, row.newValues])).toEqual([
        ['create', {}, { id, body: 'new' }],
        ['update', { body: 'new' }, { body: 'changed' }],
        ['delete', { id, body: 'changed' }, {}],
      ]);
      expect(
        await data()
          .knex('canopy_audit_trail')
          .where({ record_id: String(id) }),
      ).toHaveLength(3);
    });

    it('leaves neither the change nor a row when the write fails or its row cannot be written', async () => {
      const count = async () =>
        Number(
          ((await data().knex('canopy_audit_trail').count({ n: '*' })) as { n: number }[])[0]?.n,
        );
      const before = await count();
      await expect(
        started.client.collection('notes').update(1, { body: 'far too long for the check' }),
      ).rejects.toThrow();
      expect(await count()).toBe(before);

      await data().knex.raw('RENAME TABLE canopy_audit_trail TO canopy_audit_trail_away');
      try {
        await expect(
          started.client.collection('notes').update(1, { body: 'lost' }),
        ).rejects.toThrow();
      } finally {
        await data().knex.raw('RENAME TABLE canopy_audit_trail_away TO canopy_audit_trail');
      }
      expect((await data().knex('notes').where({ id: 1 }).first()).body).toBe('first');
      expect(await count()).toBe(before);
    });

    it('keeps its table out of the collections when it is introspected again, at restart', async () => {
      await started.agent.restart();
      const schema = JSON.parse(readFileSync(started.schemaPath, 'utf8')) as {
        collections: { name: string }[];
      };
      expect(schema.collections.map((collection) => collection.name)).toEqual(['notes']);
      const answer = await fetch(
        `http://127.0.0.1:${started.agent.standaloneServerPort}/forest/canopy_audit_trail?timezone=UTC`,
        { headers: { authorization: `Bearer ${adminToken()}` } },
      );
      expect(answer.status).toBe(404);
      await started.client.collection('notes').update(1, { body: 'after restart' });
      const { rows } = await started.client.auditTrail.history('notes', 1);
      expect(rows[0]).toMatchObject({ operation: 'update', newValues: { body: 'after restart' } });
    });
  });
});
