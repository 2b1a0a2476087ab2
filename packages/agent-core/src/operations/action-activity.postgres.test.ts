import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import {
  createAgentTestClient,
  createServerSandbox,
  type AgentTestClient,
  type ServerSandbox,
} from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/create-agent';
import { BusinessError } from '../toolkit/errors/canopy-error';

const ENV_SECRET = '7c'.repeat(32);
const AUTH_SECRET = 'action-activity-auth-secret';

/**
 * The activity log of an action run, on PostgreSQL through the agent's REST routes: a success is
 * `completed`; an error result or a thrown error is `failed` with the reason the user was shown,
 * one line and cut to 500 characters, never an unexpected error's own message.
 */
describe('the activity log of action runs', () => {
  const db = useTestDatabase('postgres');
  let sandbox: ServerSandbox;
  let agent: Agent;
  let client: AgentTestClient;

  beforeAll(async () => {
    await db().knex.raw(`
      CREATE TABLE parcels (id serial PRIMARY KEY, label text NOT NULL);
      INSERT INTO parcels (label) VALUES ('A'), ('B');
    `);
    sandbox = await createServerSandbox(0);
    const schemaPath = join(mkdtempSync(join(tmpdir(), 'canopy-activity-')), '.canopy-schema.json');
    agent = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: sandbox.url,
      schemaPath,
      isProduction: false,
      logger: () => undefined,
    })
      .addDataSource(createSqlDataSource(db().url))
      .customizeCollection('parcels', (parcels) =>
        parcels
          .addAction('Ship', {
            scope: 'Single',
            execute: (_context, resultBuilder) => resultBuilder.success('Shipped'),
          })
          .addAction('Weigh', {
            scope: 'Single',
            execute: (_context, resultBuilder) =>
              resultBuilder.error('The scale is offline:\n try again later'),
          })
          .addAction('Insure', {
            scope: 'Single',
            execute: () => {
              throw new BusinessError(`Cannot insure: ${'x'.repeat(700)}`);
            },
          })
          .addAction('Crash', {
            scope: 'Single',
            execute: () => {
              throw new Error('connect ECONNREFUSED 10.1.2.3 password=hunter2');
            },
          }),
      )
      .mountOnStandaloneServer(0, '127.0.0.1');
    await agent.start();
    client = await createAgentTestClient({
      agentEnvSecret: ENV_SECRET,
      agentAuthSecret: AUTH_SECRET,
      agentUrl: `http://127.0.0.1:${agent.standaloneServerPort}`,
      serverUrl: sandbox.url,
      agentSchemaPath: schemaPath,
    });
  }, 60_000);

  afterAll(async () => {
    await agent?.stop();
    await sandbox?.close();
  });

  const run = async (name: string) => {
    const action = await client.collection('parcels').action(name, { recordId: 1 });
    return action.execute().then(
      () => 'answered',
      () => 'refused',
    );
  };

  const logOf = async (name: string) => {
    const logs = await sandbox.waitForActivityLogs(
      (all) => all.some((log) => log.action === 'action' && log.label === name),
      { envSecret: ENV_SECRET },
    );
    return logs.find((log) => log.action === 'action' && log.label === name)!;
  };

  it('logs a success as completed, with no reason', async () => {
    await run('Ship');
    const log = await logOf('Ship');
    expect(log).toMatchObject({ type: 'write', status: 'completed', recordIds: ['1'] });
    expect(log.errorMessage).toBeUndefined();
  });

  it("logs an error result as failed, with the result's message on one line", async () => {
    await run('Weigh');
    expect(await logOf('Weigh')).toMatchObject({
      status: 'failed',
      errorMessage: 'The scale is offline: try again later',
    });
  });

  it('logs a thrown business error as failed, its message cut to 500 characters', async () => {
    expect(await run('Insure')).toBe('refused');
    const log = await logOf('Insure');
    expect(log.status).toBe('failed');
    expect(log.errorMessage).toHaveLength(500);
    expect(log.errorMessage).toMatch(/^Cannot insure: x+…$/);
  });

  it('logs an unexpected error as failed without its own message', async () => {
    expect(await run('Crash')).toBe('refused');
    const log = await logOf('Crash');
    expect(log).toMatchObject({ status: 'failed', errorMessage: 'Unexpected error' });
    expect(JSON.stringify(log)).not.toContain('hunter2');
  });
});
