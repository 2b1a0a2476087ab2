// Runs every README example against a real PostgreSQL and a platform sandbox, and checks what
// each one does. Used by `test/readme-examples.test.ts` (sources) and by `pnpm verify:pack` (a
// fresh project that installed only the packed tarballs). Not shown in the README.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Agent, signSessionToken } from '@canopy/agent-core';
import { createAgentTestClient, createServerSandbox } from '@canopy/testing';
import { startWithAi } from './ai-proxy';
import { generateSchema } from './generate-schema';
import { startMcpServer } from './mcp-server';
import { mountOnExpress } from './mount-on-express';
import { readHistory, startWithHistory } from './record-history';
import { startAgent } from './start-an-agent';

const SEED = `
  CREATE TABLE customers (id serial PRIMARY KEY, first_name text NOT NULL, last_name text NOT NULL,
    password_hash text);
  CREATE TABLE orders (id serial PRIMARY KEY, amount integer NOT NULL, status text NOT NULL,
    customer_id integer REFERENCES customers(id));
  CREATE TABLE audit_entries (id serial PRIMARY KEY, message text);
  CREATE TABLE knex_migrations (id serial PRIMARY KEY, name text);
  INSERT INTO customers (first_name, last_name, password_hash) VALUES ('Ada', 'Lovelace', 'x'),
    ('Alan', 'Turing', 'y');
  INSERT INTO orders (amount, status, customer_id) VALUES (250, 'paid', 1), (40, 'pending', 2),
    (900, 'paid', 2);
`;

/** Runs the examples in a new schema of `postgresUrl` (dropped afterwards); names what ran. */
export async function runExamples(postgresUrl: string): Promise<string[]> {
  const schema = `canopy_examples_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  const directory = mkdtempSync(join(tmpdir(), 'canopy-examples-'));
  const sandbox = await createServerSandbox(0);
  const ran: string[] = [];
  try {
    await admin.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}; ${SEED}`);
    const databaseUrl = `${postgresUrl}${postgresUrl.includes('?') ? '&' : '?'}schema=${schema}`;
    const config = (name: string) => ({
      databaseUrl,
      serverUrl: sandbox.url,
      schemaPath: join(directory, `${name}.json`),
    });

    const agent = await startAgent(config('start-an-agent'));
    try {
      await checkStartedAgent(agent, sandbox.url, join(directory, 'start-an-agent.json'));
      await agent.restart();
      assert.equal(
        (await fetch(`http://127.0.0.1:${agent.standaloneServerPort}/forest`)).status,
        200,
      );
    } finally {
      await agent.stop();
    }
    ran.push('start-an-agent');

    const mounted = await mountOnExpress(config('mount-on-express'));
    try {
      const origin = `http://127.0.0.1:${(mounted.server.address() as AddressInfo).port}`;
      assert.deepEqual(await getJson(`${origin}/status`), { ok: true });
      assert.deepEqual(await getJson(`${origin}/admin-api`), {
        error: null,
        message: 'Agent is running',
      });
      const schemaFile = JSON.parse(readFileSync(join(directory, 'mount-on-express.json'), 'utf8'));
      assert.deepEqual(
        schemaFile.collections.map((c: { name: string }) => c.name),
        ['orders'],
      );
      await mounted.agent.stop();
      assert.equal((await fetch(`${origin}/admin-api`)).status, 503);
    } finally {
      await mounted.agent.stop();
      await new Promise((resolve) => mounted.server.close(resolve));
    }
    ran.push('mount-on-express');

    await generateSchema({ databaseUrl, directory });
    const generated = JSON.parse(readFileSync(join(directory, '.canopy-schema.json'), 'utf8'));
    assert.deepEqual(
      generated.collections.map((c: { name: string }) => c.name),
      ['audit_entries', 'customers', 'knex_migrations', 'orders'],
    );
    const typings = readFileSync(join(directory, 'typings.ts'), 'utf8');
    assert.match(typings, /export type ExportedSchema = \{/);
    assert.match(typings, /'password_hash': string;/);
    assert.match(readFileSync(join(directory, 'shallow-typings.ts'), 'utf8'), /export type Schema/);
    ran.push('generate-schema');

    const mcp = await startMcpServer(config('mcp-server'));
    try {
      assert.equal(mcp.withoutTokenStatus, 401);
      assert.equal(typeof (mcp.metadata as { resource?: unknown }).resource, 'string');
    } finally {
      await mcp.agent.stop();
    }
    ran.push('mcp-server');

    const provider = await fakeOpenAi();
    try {
      const withAi = await startWithAi({ ...config('ai-proxy'), openAiBaseUrl: provider.url });
      try {
        const answer = await fetch(
          `http://127.0.0.1:${withAi.standaloneServerPort}/forest/_internal/ai-proxy/ai-query`,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${sessionToken()}`,
            },
            body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello' }] }),
          },
        );
        const body = (await answer.json()) as { choices?: { message: { content: string } }[] };
        assert.equal(answer.status, 200, JSON.stringify(body));
        assert.equal(body.choices?.[0]?.message.content, 'Hi from the fake provider');
      } finally {
        await withAi.stop();
      }
    } finally {
      await new Promise((resolve) => provider.server.close(resolve));
    }
    ran.push('ai-proxy');

    const withHistory = await startWithHistory(config('record-history'));
    try {
      const origin = `http://127.0.0.1:${withHistory.standaloneServerPort}`;
      const client = await createAgentTestClient({
        agentEnvSecret: 'ab'.repeat(32),
        agentAuthSecret: 'a-long-random-string',
        agentUrl: origin,
        serverUrl: sandbox.url,
        agentSchemaPath: join(directory, 'record-history.json'),
      });
      await client
        .collection('customers')
        .update(2, { last_name: 'M. Turing', password_hash: 'z' });
      await client.collection('customers').update(2, { last_name: 'Turing' });
      const history = await readHistory(origin, sessionToken(), 'customers', '2');
      assert.equal(
        JSON.stringify(history.entries.map((entry) => [entry.operation, entry.newValues])),
        JSON.stringify([
          ['update', { last_name: 'Turing' }],
          ['update', { last_name: 'M. Turing', password_hash: '[redacted]' }],
        ]),
      );
      assert.equal(history.asItWas?.last_name, 'M. Turing');
      assert.equal(history.sameRequest.length, 1);
      assert.equal(
        (await admin.query(`SELECT count(*) FROM ${schema}.canopy_history`)).rows[0].count,
        '2',
      );
    } finally {
      await withHistory.stop();
    }
    ran.push('record-history');
    return ran;
  } finally {
    await sandbox.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.end();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** What `startAgent` serves: renamed, removed and computed fields, a segment, counts, a chart. */
async function checkStartedAgent(agent: Agent, serverUrl: string, schemaPath: string) {
  const client = await createAgentTestClient({
    agentEnvSecret: 'ab'.repeat(32),
    agentAuthSecret: 'a-long-random-string',
    agentUrl: `http://127.0.0.1:${agent.standaloneServerPort}`,
    serverUrl,
    agentSchemaPath: schemaPath,
  });
  assert.deepEqual(client.schema.collections.map((c) => c.name).sort(), ['clients', 'orders']);
  assert.deepEqual(
    await client
      .collection('orders')
      .segment('paid')
      .list({
        fields: ['id', 'amount', 'client@@@fullName'],
        sort: { field: 'id', ascending: true },
      }),
    [
      { id: 1, amount: 250, client: { id: 1, fullName: 'Ada Lovelace' } },
      { id: 3, amount: 900, client: { id: 2, fullName: 'Alan Turing' } },
    ],
  );
  const [ada] = await client
    .collection('clients')
    .list({ filters: { field: 'id', operator: 'Equal', value: 1 } });
  assert.deepEqual(Object.keys(ada ?? {}).sort(), ['firstName', 'fullName', 'id', 'last_name']);
  assert.equal(await client.collection('clients').count({}), 'deactivated');
  assert.equal(await client.collection('orders').count({}), 3);
  assert.deepEqual(await client.chart('paidRevenue'), { countCurrent: 1150 });
}

/** A JSON answer parsed in this realm (so that deep equality holds under jest's VM too). */
async function getJson(url: string): Promise<unknown> {
  return JSON.parse(await (await fetch(url)).text());
}

function sessionToken(): string {
  return signSessionToken(
    {
      id: 1,
      email: 'admin@example.com',
      firstName: 'Admin',
      lastName: 'User',
      team: 'Operations',
      role: 'Admin',
      permissionLevel: 'admin',
      renderingId: 1,
      tags: {},
    },
    'a-long-random-string',
  );
}

/** A local stand-in for OpenAI's Chat Completions endpoint. */
async function fakeOpenAi(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'gpt-4o',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'Hi from the fake provider' },
              finish_reason: 'stop',
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

// `node run-examples.js [postgresUrl]` (verify:pack runs the compiled examples this way).
if (typeof require !== 'undefined' && require.main === module) {
  runExamples(process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/postgres').then(
    (ran) => console.log(`ok README examples: ${ran.join(', ')}`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
